"""Every page, read in German, has no English left from the catalogue.

The pages come from the URL resolver, so a new page is scanned without
anyone remembering to add it. The reader is a German player with running
and finished games of every title; the English source strings of the
catalogue must not appear in what they see (strings that read the same in
both languages, names and what players typed are not English to find).
"""

import gettext
import re
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from games import play, registry, replay
from games.models import Game
from notify import emails
from tests.factories import UserFactory, running_game
from tournaments import running
from tournaments.models import Ladder, Tournament

pytestmark = pytest.mark.django_db

MO = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.mo"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdi]|%[sdi]|\{\{.*?\}\}|\{\w*\}")
SKIPPED_PREFIXES = ("admin/",)
VISIBLE_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
SAME_IN_GERMAN: set[str] = set()  # "Play by Web" is not "Play %(game)s" in English
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Text(HTMLParser):
    """The text a reader sees (and hears from a screen reader), one piece per node."""

    def __init__(self):
        super().__init__()
        self.pieces: list[str] = []
        self._hidden = 0
        self._other_language: list[str] = []
        self.language = ""

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag in ("script", "style"):
            self._hidden += 1
        # Marked as another language on purpose: "English" in the language switch.
        if tag == "html":
            self.language = values.get("lang", "")
            return
        if values.get("lang") and values["lang"] != self.language or self._other_language:
            if tag not in VOID:
                self._other_language.append(tag)
            return
        for name in VISIBLE_ATTRIBUTES:
            if values.get(name):
                self.pieces.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.pieces.append(values["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1
        if self._other_language and self._other_language[-1] == tag:
            self._other_language.pop()

    def handle_data(self, data):
        if not self._hidden and not self._other_language and data.strip():
            self.pieces.append(" ".join(data.split()))


def _english_strings() -> tuple[set[str], re.Pattern]:
    """(single words, phrases) of the catalogue's source strings that German changes."""
    with MO.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog
    words, phrases, templates = set(), [], []
    for key, translated in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid == translated:
            SAME_IN_GERMAN.add(msgid)
        if not msgid or msgid == translated or "\x04" in msgid:
            continue
        if PLACEHOLDER.search(msgid):
            templates.append(msgid)
        for fragment in PLACEHOLDER.split(msgid):
            fragment = " ".join(fragment.split()).strip(" .,:;·()“”\"'")
            if not fragment or fragment in translated:
                continue
            if " " in fragment and len(fragment) >= 8:
                phrases.append(fragment)
            elif fragment == msgid.strip(" .:") and len(fragment) >= 3:
                words.add(fragment)
    # The compiled catalogue keeps only the singular of a plural; the .po has both.
    po = MO.with_suffix(".po").read_text(encoding="utf-8")
    for plural, translated in re.findall(
        r'\nmsgid_plural "(.+)"\n(?:msgstr\[\d\] ".*"\n)*?msgstr\[1\] "(.*)"', po
    ):
        if plural != translated:
            templates.append(plural)
    longest_first = sorted(set(phrases), key=len, reverse=True)
    alternatives = [rf"(?<!\w){re.escape(phrase)}(?!\w)" for phrase in longest_first]
    alternatives += [_whole_piece(msgid) for msgid in templates if _whole_piece(msgid)]
    return words, re.compile("|".join(alternatives))


def _whole_piece(msgid: str) -> str:
    """A string with placeholders as a pattern for a whole text piece ("1 days")."""
    fragments = PLACEHOLDER.split(" ".join(msgid.split()))
    if not any(re.search(r"[A-Za-z]{3}", fragment) for fragment in fragments):
        return ""
    return "^" + "\\S.*?".join(re.escape(fragment) for fragment in fragments) + "$"


def _english_in(html: str, words: set[str], phrases: re.Pattern) -> set[str]:
    parser = _Text()
    parser.feed(html)
    found = set() if parser.language in ("de", "") else {f"<html lang={parser.language}>"}
    for piece in parser.pieces:
        if piece in SAME_IN_GERMAN:
            continue
        if piece.strip(" .:") in words:
            found.add(piece)
        found.update(match.group(0) for match in phrases.finditer(piece))
    return found


def _routes(patterns=None, prefix=""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


def _urls(route: str, values: dict[str, list[str]]) -> list[str]:
    if route.startswith(SKIPPED_PREFIXES) or "^" in route:
        return []
    urls = ["/" + route]
    for name in re.findall(r"<(?:\w+:)?(\w+)>", route):
        urls = [
            re.sub(rf"<(?:\w+:)?{name}>", value, url, count=1)
            for url in urls
            for value in values.get(name, ["unknown"])
        ]
    return urls


def _play(game: Game, moves: int) -> None:
    for _ in range(moves):
        game.refresh_from_db()
        state = replay.current_state(game)
        seats = sorted(game.engine.active_seats(state))
        if not seats:
            return
        action = game.engine.legal_actions(state, seats[0])[0]
        play.act(game.pk, game.seats.get(number=seats[0]).user, action, None)


@pytest.fixture
def german_player(db):
    reader = UserFactory(username="leser", language="de", time_zone="Europe/Berlin")
    others = [UserFactory(username=f"gegner{i}") for i in range(3)]
    games = [
        running_game("siam", [reader, others[0]], options={"map": "siam"}, title="Partie A"),
        running_game("siam", [reader, *others[:2]], options={"map": "saba"}, title="Partie B"),
        running_game("siam", [reader, *others], options={"map": "siam"}, title="Partie C"),
        running_game("tal", [reader, *others[:2]], title="Partie D"),
    ]
    for game in games:
        _play(game, 3)
    over = [
        running_game("siam", [reader, others[0]], options={"map": "saba"}, title="Partie E"),
        running_game("tal", [reader, others[0]], title="Partie F"),
    ]
    for game in over:
        _play(game, 2)
        play.resign(game.pk, others[0])
    play.post_chat(games[0].pk, others[0], "Hallo")
    waiting = play.create_game(
        reader,
        registry.get("siam"),
        title="Partie G",
        players=2,
        options={"map": "siam"},
        time_limit_days=1,
        private=True,
    )
    cup = _tournament(reader, others)
    cup_games = list(Game.objects.filter(tournament_table__tournament=cup))
    values = {
        "game_id": [str(g.pk) for g in [*games, *over, waiting, *cup_games[:1]]],
        "tournament_id": [str(cup.pk)],
        "entrant_id": [str(cup.entrants.first().pk)],
        "ladder_id": [str(pk) for pk in Ladder.objects.values_list("pk", flat=True)],
        "username": [reader.username, others[0].username],
        "kind": [kind.slug for kind in registry.kinds()],
        "token": [waiting.invite_token(), emails.unsubscribe_token(reader, "turn")],
        "invitation_id": ["1"],
    }
    return reader, values


def _tournament(reader, others):
    """A running Swiss of King of Siam with the reader in it, one round played."""
    cup = running.create(
        reader,
        name="Pokal",
        kind="siam",
        options={"map": "siam"},
        table_size=2,
        format="swiss",
        rounds=2,
        min_entrants=2,
        max_entrants=8,
        signup_closes=timezone.now() + timedelta(days=1),
    )
    for user in [reader, *others[:3]]:
        running.enter(cup.pk, user)
    Tournament.objects.filter(pk=cup.pk).update(signup_closes=timezone.now())
    running.advance(cup.pk)
    first = Game.objects.filter(tournament_table__tournament=cup).first()
    play.resign(first.pk, first.seats.get(number=1).user)
    return cup


def _scan(client, values) -> dict[str, set[str]]:
    words, phrases = _english_strings()
    english = {}
    for route in _routes():
        for url in _urls(route, values):
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            found = _english_in(response.content.decode(), words, phrases)
            if found:
                english[url] = found
    return english


def test_every_page_a_german_player_sees_is_german(client, german_player):
    reader, values = german_player
    client.force_login(reader)
    english = _scan(client, values)
    assert not english, "\n".join(f"{url}: {sorted(found)}" for url, found in english.items())


def test_every_page_a_german_visitor_sees_is_german(client, german_player):
    _reader, values = german_player
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    english = _scan(client, values)
    assert not english, "\n".join(f"{url}: {sorted(found)}" for url, found in english.items())


def test_the_scan_finds_english(client, german_player):
    reader, values = german_player
    words, phrases = _english_strings()
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert {"Open games", "Start a new game"} <= _english_in(page, words, phrases)
    assert {"1 days", "New King of Siam game"} <= _english_in(
        "<html lang=de><option>1 days</option><a>New King of Siam game</a>", words, phrases
    )


def test_german_saba_board_names_its_map_and_title_in_german(client, german_player):
    reader, _values = german_player
    client.force_login(reader)
    saba = Game.objects.get(title="Partie B")
    html = client.get(saba.get_absolute_url()).content.decode()
    assert "Äthiopien · 1890" in html and "Ethiopia" not in html
    assert "König von Saba" in html and "King of" not in html
    lobby = client.get("/").content.decode()
    assert "König von Siam" in lobby
    assert "King of Siam" not in lobby and "King of Saba" not in lobby
