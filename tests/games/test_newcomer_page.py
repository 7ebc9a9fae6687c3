"""The game page for a newcomer: the history URL, "since you last looked", the
take-back trace, the chat form's place, the in-tab notice settings and the
player markers."""

import re
import wave
from pathlib import Path

import pytest

from games import play, replay
from games.models import Seat
from siam import board
from siam.engine.maps import MAPS
from siam.layout import LOOKS
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("at", ["9999", "-1", "abc", "3"])
def test_a_position_that_does_not_exist_is_a_404_with_a_link_to_the_latest(client, started, at):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)  # two moves: ?at=0..2 exist
    client.force_login(first)
    for url in (f"/g/{game.pk}/?at={at}", f"/g/{game.pk}/board?at={at}"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert f'href="/g/{game.pk}/"' in response.content.decode()
        assert "has no position" in response.content.decode()
    assert client.get(f"/g/{game.pk}/?at=2").status_code == 200


def test_the_history_board_tells_htmx_the_url_of_the_position_it_shows(client, started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    client.force_login(first)
    response = client.get(f"/g/{game.pk}/board?at=0", headers={"HX-Request": "true"})
    assert response["HX-Push-Url"] == f"/g/{game.pk}/?at=0"
    assert "Position after move 0 of 1" in response.content.decode()
    # The poll swaps the board too, but must never change the address bar.
    poll = client.get(f"/g/{game.pk}/poll?v=-1&c=0", headers={"HX-Request": "true"})
    assert "HX-Push-Url" not in poll


def new_entries(page: str) -> int:
    return page.count("<mark>")


def test_since_you_last_looked_marks_exactly_the_moves_made_since(client, started):
    game, first, second = started
    client.force_login(second)
    client.get(f"/g/{game.pk}/")  # the first look: nothing is new
    seat = Seat.objects.get(game=game, user=second)
    assert seat.seen_version == game.version
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Since you last looked: 2 new moves" in page
    assert new_entries(page) == 2
    assert "Mark as seen" in page
    # Reloading (or the poll) keeps the marks until the player dismisses them...
    assert new_entries(client.get(f"/g/{game.pk}/").content.decode()) == 2
    client.post(f"/g/{game.pk}/seen", {"request_id": "dismiss-1"})
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert new_entries(page) == 0 and "Since you last looked" not in page
    # ...or acts: then only what came after counts.
    play.act(game.pk, second, {"type": "add", "n": 1}, None)
    play.act(game.pk, second, {"type": "end"}, None)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert new_entries(page) == 1


def test_since_is_built_from_the_viewers_own_view(started):
    from games.pages import board_page

    game, first, second = started
    second_seat = Seat.objects.get(game=game, user=second)
    play.act(game.pk, second if second_seat.to_move else first, {"type": "add", "n": 1}, None)
    Seat.objects.filter(pk=second_seat.pk).update(seen_version=0, seen_move_count=0)
    game.refresh_from_db()
    page = board_page(game, second)
    secrets = replay.current_state(game).secrets
    assert page.since.before == game.engine.view(replay.state_at(game, 0), second_seat.number)
    other = secrets[1 - second_seat.number]
    assert str(other) not in str(page.since.before) and str(other) not in str(page.before_last)


def test_a_take_back_leaves_a_trace_for_the_opponent(client, started):
    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.undo(game.pk, first, None)
    client.force_login(second)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Alice took back an action (after move 0)." in page or (
        "Bob took back an action (after move 0)." in page
    )
    client.force_login(first)
    assert (
        "You took back an action (after move 0)." in client.get(f"/g/{game.pk}/").content.decode()
    )


def test_the_chat_form_sits_in_the_chat_and_keeps_its_text_across_polls(client, started):
    game, first, _ = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    chat = page[
        page.index('<section class="chat"') : page.index(
            "</section>", page.index('<section class="chat"')
        )
    ]
    assert 'class="chat-form" id="chat-form" hx-preserve="true"' in chat
    assert page.index('class="chat-form"') < page.index('class="resign-form"')


def test_turn_notices_are_offered_off_by_default_with_a_local_sound(client, started):
    game, first, _ = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'data-my-turn="' in page
    assert (
        page.count('data-notice="') == 2
        and " checked" not in page.split("data-tab-notices")[1][:900]
    )
    src = re.search(r'data-sound="([^"]+your-turn\.wav)"', page).group(1)
    assert src.startswith("/static/")
    with wave.open(str(ROOT / "static" / "sounds" / "your-turn.wav")) as w:
        assert 0.1 < w.getnframes() / w.getframerate() < 1.0


def test_player_markers_differ_from_every_faction_colour_and_carry_a_number(client, started):
    css = (ROOT / "static" / "css" / "site.css").read_text()
    seats = dict(re.findall(r"--seat-(\d): (#[0-9a-f]{6})", css))
    assert len(seats) == 4

    def rgb(h):
        return tuple(int(h[i : i + 2], 16) for i in (1, 3, 5))

    factions = [fill for look in LOOKS.values() for fill, _ink in look["colours"]]
    for seat_colour in seats.values():
        for fill in factions:
            distance = (
                sum((a - b) ** 2 for a, b in zip(rgb(seat_colour), rgb(fill), strict=True)) ** 0.5
            )
            assert distance > 100, (seat_colour, fill)
    game, first, _ = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert '<span class="seat-dot" aria-hidden="true">1</span>' in page
    assert '<span class="seat-dot" aria-hidden="true">2</span>' in page


def test_siam_board_marks_the_provinces_the_last_move_changed():
    users = [UserFactory(), UserFactory()]
    game = running_game("siam", users, {"map": "siam"})
    engine = game.engine
    state = replay.current_state(game)
    seat = sorted(engine.active_seats(state))[0]
    before = engine.view(state, seat)
    # A faction card that places (by the deal, one in a few hundred has nowhere to go).
    played = (
        engine.apply(state, seat, {"type": "play", "card": c}) for c in MAPS["siam"].faction_ids
    )
    after_state, place = next(
        (after, a)
        for after in played
        for a in engine.legal_actions(after, seat)
        if a["type"] == "place"
    )
    after_state = engine.apply(after_state, seat, place)
    b = board.build(engine.view(after_state, seat), {}, before_last=before)
    marked = {p["id"] for p in b["provinces"] if p["last"]}
    assert marked == {place["province"]}
    assert b["seats"][seat]["played"] and "last move" in next(
        p["desc"] for p in b["provinces"] if p["last"]
    )
