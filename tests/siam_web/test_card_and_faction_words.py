"""A card and a faction may share a name: King of Siam's card "Malai" plays
followers of the faction German calls "Malaien". The engine's arguments named
``card`` and ``faction`` are translated each in its own message context."""

import gettext
import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games import play, replay, text
from siam.engine import ENGINE
from siam.engine.maps import MAPS

from .conftest import _game, seat_user

pytestmark = pytest.mark.django_db


def _to_move(game):
    game.refresh_from_db()
    seat = game.seats.get(to_move=True)
    return seat.user, seat.number


def _german_page(client, game, user) -> str:
    user.language = "de"
    user.save(update_fields=["language"])
    client.force_login(user)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    return html.unescape(page.content.decode())


def _malai_places(game) -> bool:
    """Whether the card Malai, played now, places two Malai followers: by the deal (some
    two games in a hundred) the Malai may have no province to go to, or only one
    follower in the supply."""
    state = replay.current_state(game)
    seat = game.seats.get(to_move=True).number
    card = {"type": "play", "card": "malai"}
    if card not in ENGINE.legal_actions(state, seat):
        return False
    pending = ENGINE.apply(state, seat, card).pending
    return pending is not None and pending.stage == "place" and len(pending.to_place) == 2


def test_german_board_and_log_say_malai_for_the_card_and_malaien_for_the_faction(
    client, siam_game, users
):
    while not _malai_places(siam_game):
        siam_game = _game(users[:2])
    user, seat = _to_move(siam_game)
    name = user.display_name
    play.act(siam_game.pk, user, {"type": "play", "card": "malai"}, None)
    place = ENGINE.legal_actions(replay.current_state(siam_game), seat)[0]
    province = {p.id: p.name for p in MAPS["siam"].provinces}[place["province"]]
    page = _german_page(client, siam_game, user)

    # The card: in the log, the card in progress, the prompt and the cards played.
    assert f"{name} spielt Malai." in page
    assert f"{name} spielt Malai:" in page
    assert "Malai: Setze einen Malaien-Anhänger ein (noch 2 einzusetzen)." in page
    assert re.search(r'class="played-card[^"]*">Malai\b(?!en)', page)
    # The faction: the card's help, the action labels, the supply and its home.
    assert "Setze zwei Malaien-Anhänger in Provinzen ein" in page
    assert f"Einen Malaien-Anhänger in {province} einsetzen" in page
    assert 'title="Malaien"' in page
    assert "Heimatprovinz der Malaien" in page
    # Neither in the other's place.
    assert "spielt Malaien" not in page and "Malai-Anhänger" not in page
    assert "der Malai<" not in page and "der Malai)" not in page

    # The other player still holds the card: it keeps the card's name in their hand.
    play.act(siam_game.pk, user, place, None)
    other = _german_page(client, siam_game, seat_user(siam_game, 1 - seat))
    assert f"{name} setzt einen Malaien-Anhänger in {province} ein." in other
    assert re.search(r'<span class="cname">Malai\b(?!en)', other)


def test_the_renderer_translates_card_and_faction_arguments_in_their_context():
    card = {"key": "{player} plays {card}.", "args": {"player": 0, "card": "Malai"}}
    swap = {
        "key": "{player} swaps {faction} from {province} ⇄ {other_faction} from {other_province}.",
        "args": {
            "player": 0,
            "faction": "Lao",
            "province": "Chiang Mai",
            "other_faction": "Malai",
            "other_province": "Pattani",
        },
    }
    with translation.override("de"):
        assert text.render(card, {0: "Anna"}) == "Anna spielt Malai."
        assert text.render(swap, {0: "Anna"}).endswith("Malaien aus Pattani.")
        assert text.word("Malai", "card") == "Malai"
        assert text.word("Malai", "faction") == "Malaien"
        assert text.word("Pattani") == "Pattani"
    with translation.override("en"):
        assert text.render(card, {0: "Anna"}) == "Anna plays Malai."
    assert [text.word_kind(n) for n in ("card", "other_faction", "province", "cards")] == [
        "card",
        "faction",
        None,
        None,
    ]


def test_every_card_and_faction_name_has_its_german_in_its_context():
    mo = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as handle:
        german = gettext.GNUTranslations(handle)._catalog
    wanted = {f"card\x04{c.name}" for m in MAPS.values() for c in m.cards}
    wanted |= {f"faction\x04{name}" for m in MAPS.values() for name in m.faction_names}
    assert not sorted(key.replace("\x04", ": ") for key in wanted - set(german))
