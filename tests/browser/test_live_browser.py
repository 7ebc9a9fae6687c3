"""Live updates (live/): two people on one game in Chromium, the site served as in
production (uvicorn, config.asgi, ``tests/live/conftest.py``): each sees the other's
move the moment it is made, with no poll request at all; when Redis stops, the page
polls again and still sees the moves, and when Redis is back its stream reopens and
the polling stops."""

from __future__ import annotations

import re
import time

import pytest

from games import play, replay
from games.models import Game
from tests.factories import UserFactory
from tests.live.conftest import _live_state, asgi_server, cookie_of  # noqa: F401  (fixtures)
from tests.notify.test_real_services import own_redis  # noqa: F401  (a fixture)

from .conftest import CSP_VIOLATIONS, watch_csp

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = re.compile(r"/g/\d+/poll")


@pytest.fixture
def game(count_kind):
    anna = UserFactory(username="anna", display_name="Anna")
    bert = UserFactory(username="bert", display_name="Bert")
    game = play.create_game(
        anna, count_kind, title="Live", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)
    game.refresh_from_db()
    return game


@pytest.fixture
def open_page(browser, asgi_server):  # noqa: F811  (asgi_server: imported)
    contexts = []
    cookies = {}

    def cookie(user):
        # Sessions are made before any page is open: on SQLite the test database is one
        # in memory shared by the test and the server's threads, where a write of the
        # test's meeting a page's read of the same table fails ("table is locked").
        if user.pk not in cookies:
            cookies[user.pk] = cookie_of(user)
        return cookies[user.pk]

    def open_as(user, path, init_script=None):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        if init_script:
            context.add_init_script(init_script)
        name, _, value = cookie(user).partition("=")
        context.add_cookies([{"name": name, "value": value, "url": asgi_server.url}])
        contexts.append(context)
        page = context.new_page()
        watch_csp(page)
        page.requests = []
        page.on("request", lambda request: page.requests.append(request.url))
        page.goto(asgi_server.url + path)
        return page

    open_as.sign_in = lambda *users: [cookie(user) for user in users]
    yield open_as
    for context in contexts:
        context.close()
    assert not CSP_VIOLATIONS, CSP_VIOLATIONS


def wait_live(page, state="open", seconds=10):
    page.wait_for_selector(
        f"[data-live][data-live-state={state}]", state="attached", timeout=seconds * 1000
    )


def shown_version(page) -> int:
    poll = page.get_attribute("#game-poll", "hx-get")
    return int(re.search(r"v=(\d+)", poll).group(1))


def wait_version(page, version, seconds):
    page.wait_for_function(
        "v => { const p = document.getElementById('game-poll');"
        " return p && Number(new URL(p.getAttribute('hx-get'), location.href)"
        ".searchParams.get('v')) >= v }",
        arg=version,
        timeout=seconds * 1000,
    )


def mover_of(game):
    game.refresh_from_db()
    return game.seats.get(to_move=True).user


def test_two_players_see_each_others_moves_without_polling(game, open_page):
    anna, bert = (game.seats.get(number=n).user for n in (0, 1))
    open_page.sign_in(anna, bert)
    pages = {user.pk: open_page(user, f"/g/{game.pk}/") for user in (anna, bert)}
    for page in pages.values():
        wait_live(page)
        page.requests.clear()
    for _ in range(3):  # a few moves, back and forth (add, end turn)
        mover = mover_of(game)
        other = pages[(bert if mover == anna else anna).pk]
        before = shown_version(other)
        pages[mover.pk].locator("#board-area button.action").first.click()
        # At once (bench/live.py: p95 under 10 ms); the wait allows for a busy machine, and
        # the poll, which would come within 4 s, is checked below to have never run.
        wait_version(other, before + 1, seconds=10)
        game.refresh_from_db()
        wait_version(pages[mover.pk], game.version, seconds=10)
    # Idle for longer than the poll's 4 seconds: still no poll.
    time.sleep(4.5)
    for page in pages.values():
        assert not [url for url in page.requests if POLL.search(url)], page.requests
        assert any("/live/changes" in url for url in page.requests)  # the stream's fetch
        assert shown_version(page) == Game.objects.get(pk=game.pk).version
    # The other player's page shows the board the stream announced, drawn for them.
    assert "Add 1" in pages[mover_of(game).pk].inner_text("#board-area")


def test_without_redis_the_page_polls_and_catches_up_then_streams_again(
    game,
    open_page,
    own_redis,  # noqa: F811  (a fixture imported above)
    settings,
):
    url, stop, restart = own_redis
    settings.LIVE_REDIS_URL = url
    anna, bert = (game.seats.get(number=n).user for n in (0, 1))
    page = open_page(bert, f"/g/{game.pk}/")
    wait_live(page)
    stop()
    wait_live(page, "closed")
    page.requests.clear()
    mover = mover_of(game)
    state = replay.current_state(game)
    number = game.seats.get(user=mover).number
    play.act(game.pk, mover, game.engine.legal_actions(state, number)[0], None)
    game.refresh_from_db()
    wait_version(page, game.version, seconds=10)  # found by the 4-second poll
    assert any(POLL.search(url) for url in page.requests)
    restart()
    wait_live(page, "open", seconds=40)  # the extension retries with growing pauses
    page.requests.clear()
    time.sleep(4.5)
    assert not [u for u in page.requests if POLL.search(u)]  # streaming again: no poll


def test_the_menus_badge_follows_the_players_turns_without_a_reload(game, open_page):
    mover = mover_of(game)
    waiting = game.seats.exclude(user=mover).get().user
    lobby = open_page(waiting, "/")
    wait_live(lobby)
    assert lobby.locator("#turn-badge .badge").count() == 0
    state = replay.current_state(game)
    number = game.seats.get(user=mover).number
    for action in ({"type": "add", "n": 1}, {"type": "end"}):  # the turn passes to them
        assert action in game.engine.legal_actions(state, number)
        play.act(game.pk, mover, action, None)
        state = replay.current_state(Game.objects.get(pk=game.pk))
    # (a stream's event comes at once; the wait allows for a busy machine, and no poll
    # may have brought it: see the last line)
    lobby.wait_for_selector("#turn-badge .badge", timeout=10000)
    assert lobby.inner_text("#turn-badge .badge") == "1"
    assert "1 game waits for you" in lobby.get_attribute("#turn-badge .badge", "aria-label")
    assert not [url for url in lobby.requests if POLL.search(url)]


# Counts the stream's badge events as the page's own listener gets them.
COUNT_BADGE_EVENTS = """
(() => {
  window.badgeEvents = 0;
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, ...rest) {
    if (type !== "badge") return add.call(this, type, listener, ...rest);
    return add.call(this, type, function (event) {
      window.badgeEvents += 1;
      return listener.call(this, event);
    }, ...rest);
  };
})();
"""


def test_news_that_comes_while_the_badge_is_fetched_is_fetched_after_it(game, open_page):
    """The first move's badge fetch is answered late, with the count from before the
    turn passed: the second move's news, come meanwhile, brings the right count."""
    mover = mover_of(game)
    waiting = game.seats.exclude(user=mover).get().user
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # counted now; answered later

    open_page.sign_in(waiting)
    lobby = open_page(waiting, "/", init_script=COUNT_BADGE_EVENTS)
    wait_live(lobby)
    lobby.route("**/live/badge", hold_the_first)
    state = replay.current_state(game)
    number = game.seats.get(user=mover).number
    play.act(game.pk, mover, {"type": "add", "n": 1}, None)
    lobby.wait_for_function("window.badgeEvents === 1", timeout=10000)
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        lobby.wait_for_timeout(50)
    assert held, "the first badge fetch did not come"
    state = replay.current_state(Game.objects.get(pk=game.pk))
    assert {"type": "end"} in game.engine.legal_actions(state, number)
    play.act(game.pk, mover, {"type": "end"}, None)  # the turn passes to them
    lobby.wait_for_function("window.badgeEvents === 2", timeout=10000)
    route, answer = held[0]
    route.fulfill(response=answer)  # the old count: nothing waits yet
    lobby.wait_for_selector("#turn-badge .badge", timeout=10000)
    assert lobby.inner_text("#turn-badge .badge") == "1"


def test_the_waiting_page_of_an_open_game_shows_the_game_when_it_starts(count_kind, open_page):
    anna = UserFactory(username="anna", display_name="Anna")
    waiting = play.create_game(
        anna, count_kind, title="Soon", players=2, options={}, time_limit_days=3, private=True
    )
    page = open_page(anna, f"/g/{waiting.pk}/")
    wait_live(page)
    assert page.locator("#board-area").count() == 0
    page.requests.clear()
    play.join(waiting.pk, UserFactory(username="bert"))  # full: it starts
    page.wait_for_selector("#board-area", timeout=5000)  # reloaded at once, no poll
    assert not [url for url in page.requests if POLL.search(url)]
