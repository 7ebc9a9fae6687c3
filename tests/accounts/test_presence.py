"""Who is online (issue 34): a dot beside the name of a player seen on the site in the
last few minutes, in a game's header, the lists of games and on the profile; a player
can hide it; a cached game page never keeps a dot that time has taken away."""

import datetime

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import presence
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

DOT = 'class="online-dot"'
NOON = datetime.datetime(2030, 5, 15, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock():
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


@pytest.fixture
def ada(db):
    return UserFactory(username="ada", display_name="Ada")


@pytest.fixture
def bo(db):
    return UserFactory(username="bo", display_name="Bo")


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def header(html: str) -> str:
    return html.split('<header class="game-header">', 1)[1].split("</header>", 1)[0]


def name_and_mark(html: str, name: str) -> str:
    """What follows the name's link in its line of the header."""
    return html.split(f">{name}</a>", 1)[1].split("</li>", 1)[0]


def test_a_visit_is_recorded_at_most_once_a_minute(ada, clock):
    client = signed_in(ada)
    client.get("/")
    ada.refresh_from_db()
    assert ada.last_seen == NOON
    clock.shift(datetime.timedelta(seconds=30))
    with CaptureQueriesContext(connection) as queries:
        client.get("/")
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]
    ada.refresh_from_db()
    assert ada.last_seen == NOON
    clock.shift(datetime.timedelta(seconds=31))
    client.get("/")
    ada.refresh_from_db()
    assert ada.last_seen == NOON + datetime.timedelta(seconds=61)


def test_the_game_header_marks_a_player_online_and_drops_the_mark_when_they_go(
    ada, bo, clock, settings
):
    settings.PAGE_CACHE_CHECK = False  # what a real cache hit serves
    game = running_game("siam", [ada, bo])
    signed_in(bo).get("/")  # Bo is here now
    viewer = signed_in(ada)
    page = header(viewer.get(game.get_absolute_url()).content.decode())
    assert DOT in name_and_mark(page, "Bo")
    assert DOT in name_and_mark(page, "Ada")  # the viewer is here too
    clock.shift(presence.ONLINE_WINDOW - datetime.timedelta(seconds=10))
    viewer.get("/")  # Ada stays; Bo has not been back
    page = header(viewer.get(game.get_absolute_url()).content.decode())
    assert DOT in name_and_mark(page, "Bo")
    clock.shift(datetime.timedelta(seconds=20))
    # Bo left more than five minutes ago: the cached page of a moment ago must not serve.
    page = header(viewer.get(game.get_absolute_url()).content.decode())
    assert DOT not in name_and_mark(page, "Bo")
    assert DOT in name_and_mark(page, "Ada")


def test_a_cached_page_is_served_while_nobody_comes_or_goes(ada, bo, clock, settings):
    from games import pagecache

    settings.PAGE_CACHE_CHECK = False
    game = running_game("siam", [ada, bo])
    clock.shift(datetime.timedelta(minutes=90))  # "time left" stays "2 days, 22 hours"
    viewer = signed_in(ada)
    viewer.get(game.get_absolute_url())
    key = pagecache.page_key(_request_for(ada), game)
    clock.shift(datetime.timedelta(seconds=30))
    assert pagecache.page_key(_request_for(ada), game) == key  # time alone changes nothing
    signed_in(bo).get("/")  # Bo comes
    assert pagecache.page_key(_request_for(ada), game) != key


def _request_for(user):
    from django.test import RequestFactory

    request = RequestFactory().get("/g/1/")
    request.user = user
    return request


def test_the_lobby_and_the_profile_mark_who_is_online(ada, bo, clock):
    running_game("tal", [ada, bo])  # public: listed among the games to watch
    signed_in(bo).get("/")
    lobby = Client().get("/").content.decode()
    assert f"Bo<span {DOT}" in lobby
    assert f"Ada<span {DOT}" not in lobby
    assert DOT in Client().get("/u/bo/").content.decode().split("</h1>", 1)[0]
    assert DOT not in Client().get("/u/ada/").content.decode().split("</h1>", 1)[0]


def test_a_player_who_hides_it_is_shown_nowhere_and_not_even_recorded(ada, bo, clock):
    game = running_game("siam", [ada, bo])
    client = signed_in(bo)
    response = client.post("/settings/", _settings(bo, show_online=""))
    assert response.status_code == 302
    bo.refresh_from_db()
    assert not bo.show_online
    bo.last_seen = None
    bo.save()
    client.get("/")
    bo.refresh_from_db()
    assert bo.last_seen is None
    page = header(signed_in(ada).get(game.get_absolute_url()).content.decode())
    assert DOT not in name_and_mark(page, "Bo")
    assert DOT not in Client().get("/u/bo/").content.decode().split("</h1>", 1)[0]


def test_the_setting_is_on_the_settings_page(ada):
    page = signed_in(ada).get("/settings/").content.decode()
    assert 'name="show_online"' in page and "Show others when I am online" in page


def test_computer_players_are_never_online(ada, clock):
    from botplay.accounts import bot_user

    bot = bot_user("random")
    bot.last_seen = timezone.now()
    bot.save()
    assert not presence.is_online(bot)


def _settings(user, **changes):
    data = {
        "display_name": user.display_name,
        "language": "",
        "time_zone": "UTC",
        "notify_turn": "on",
        "notify_reminder_hours": "24",
        "notify_game_end": "on",
        "digest_hour": "",
        "quiet_from": "",
        "quiet_until": "",
        "vacation_until": "",
        "show_online": "on",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != "" or k not in ("show_online",)}
