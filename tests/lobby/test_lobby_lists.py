"""The lobby's filters and its list of running games to watch."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client, override_settings
from django.utils import timezone

from games import play, registry
from games.models import Game
from lobby.listing import WATCH_PER_PAGE
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


def _open(user, kind, title, players=2, days=3, options=None, private=False):
    return play.create_game(
        user,
        registry.get(kind),
        title=title,
        players=players,
        options=options or {},
        time_limit_days=days,
        private=private,
    )


def _section(html: str, heading_id: str) -> str:
    start = html.index(f'id="{heading_id}"')
    end = html.find("</section>", start)
    return html[start:end]


@pytest.fixture
def mixed_lobby(db):
    host = UserFactory(username="host")
    _open(host, "siam", "Siam duel", players=2, days=1, options={"map": "siam"})
    _open(host, "siam", "Saba trio", players=3, days=3, options={"map": "saba"})
    _open(host, "siam", "Siam teams", players=4, days=7, options={"map": "siam"})
    _open(host, "tal", "Valley", players=3, days=3)
    return host


def _open_titles(client, query="") -> set[str]:
    html = client.get("/" + query).content.decode()
    section = _section(html, "open-h")
    return set(re.findall(r'href="/g/\d+/">([^<]+)</a>', section))


def test_title_filter_tells_king_of_saba_from_king_of_siam(client, mixed_lobby):
    assert _open_titles(client) == {"Siam duel", "Saba trio", "Siam teams", "Valley"}
    assert _open_titles(client, "?title=siam.saba") == {"Saba trio"}
    assert _open_titles(client, "?title=siam.siam") == {"Siam duel", "Siam teams"}
    assert _open_titles(client, "?title=tal") == {"Valley"}


def test_player_and_time_limit_filters_combine(client, mixed_lobby):
    assert _open_titles(client, "?players=3") == {"Saba trio", "Valley"}
    assert _open_titles(client, "?players=3&time_limit=3&title=tal") == {"Valley"}
    assert _open_titles(client, "?time_limit=7") == {"Siam teams"}
    html = client.get("/?players=4&time_limit=1").content.decode()
    assert "No open game matches this filter." in html
    # Nor does a running one: the page says the filter found none, not that none runs.
    assert "No running game matches this filter." in html
    assert "No public game is running right now." not in html


def test_a_nonsense_filter_shows_everything_rather_than_failing(client, mixed_lobby):
    response = client.get("/?players=many&title=chess")
    assert response.status_code == 200
    assert len(_open_titles(client, "?players=many&title=chess")) == 4


def test_filter_menu_says_one_day_not_one_days(client, mixed_lobby):
    html = client.get("/").content.decode()
    assert ">1 day<" in html and "1 days" not in html


def test_running_public_games_are_listed_to_watch_newest_activity_first(client, count_kind):
    users = [UserFactory() for _ in range(4)]
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        quiet = running_game("count", users[:2], title="Quiet game")
        clock.shift(timedelta(hours=1))
        busy = running_game("count", users[2:], title="Busy game")
        clock.shift(timedelta(hours=1))
        # The older game gets a move now, so it is the one with the newest activity.
        mover = quiet.seats.get(number=0).user
        play.act(quiet.pk, mover, {"type": "add", "n": 1}, None)
    hidden = running_game("count", [UserFactory(), UserFactory()], title="Hidden game")
    Game.objects.filter(pk=hidden.pk).update(private=True)
    html = client.get("/").content.decode()
    watch = _section(html, "watch-h")
    titles = re.findall(r'href="/g/\d+/">([^<]+)</a>', watch)
    assert titles == ["Quiet game", "Busy game"]
    assert busy.pk != quiet.pk


@pytest.fixture
def count(count_kind):
    return count_kind


def test_watch_list_is_paginated(client, count):
    for i in range(WATCH_PER_PAGE + 3):
        running_game("count", [UserFactory(), UserFactory()], title=f"Game {i:02d}")
    first = _section(client.get("/").content.decode(), "watch-h")
    second = _section(client.get("/?watch=2").content.decode(), "watch-h")
    assert first.count('href="/g/') == WATCH_PER_PAGE
    assert second.count('href="/g/') == 3
    assert "?watch=2#watch" in first


def _watched(client) -> list[str]:
    watch = _section(client.get("/").content.decode(), "watch-h")
    return re.findall(r'href="/g/\d+/">([^<]+)</a>', watch)


def test_the_list_to_watch_is_drawn_once_for_everyone_for_its_seconds(client, count):
    """Everyone's lobby shows the same running games: drawn once, kept in the cache
    for LOBBY_WATCH_SECONDS, so a game started meanwhile shows when that has passed."""
    running_game("count", [UserFactory(), UserFactory()], title="First game")
    client.force_login(UserFactory())
    assert _watched(client) == ["First game"]
    running_game("count", [UserFactory(), UserFactory()], title="Second game")
    other = Client()
    other.force_login(UserFactory())
    assert _watched(other) == ["First game"]  # another viewer, the same list
    with override_settings(LOBBY_WATCH_SECONDS=0):
        assert _watched(other) == ["Second game", "First game"]


def test_the_kept_list_is_per_language(client, count):
    running_game("count", [UserFactory(), UserFactory()], title="First game")
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = Client().get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Running games to watch" in _section(english, "watch-h")
    assert "Running games to watch" not in _section(german, "watch-h")
