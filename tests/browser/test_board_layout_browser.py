"""What a board shows first, and never hides, at the widths players use (from a visual
review: the market covered a site, bidding sat below the valley on a phone, the Siam map
on a phone showed a corner instead of the province fought over)."""

import pytest

from games import replay
from tests.factories import UserFactory, running_game
from tests.tal_web.conftest import play_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COVERED_SITES = """() => {
    const market = document.querySelector('.tal-market').getBoundingClientRect();
    return [...document.querySelectorAll('svg.valley .site-bg')].filter(site => {
        const r = site.getBoundingClientRect();
        return r.left < market.right && market.left < r.right
            && r.top < market.bottom && market.top < r.bottom;
    }).length;
}"""


def test_the_stone_market_never_covers_a_site_of_the_valley(login, live_server):
    names = ("Anna", "Ben", "Carl-Friedrich Wilhelmsen", "Dora")  # a long name wraps
    users = [UserFactory(display_name=n) for n in names]
    game = running_game("tal", users, {}, title="Four players")
    # Building: all five groups sold, each with four players' bids, the market at its tallest.
    play_to(game, "build")
    page = login(users[0])
    for width in (1100, 1280, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/g/{game.pk}/")
        assert page.locator(".tal-market .group").count() == 5
        assert page.evaluate(COVERED_SITES) == 0, width


def test_on_a_phone_bidding_comes_before_the_valley(login, live_server):
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("tal", users, {}, title="Bidding")
    state = replay.current_state(game)
    assert state.phase == "bid"
    bidder = game.seats.get(number=min(game.engine.active_seats(state))).user
    page = login(bidder, width=360, height=800)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    bid = page.locator(".bid-btn").first.bounding_box()
    valley = page.locator("svg.valley").bounding_box()
    assert bid["y"] < valley["y"]
    assert bid["y"] < 800  # on the first screen


def test_on_a_phone_the_siam_map_shows_the_province_fought_over(login, live_server):
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("siam", users, {"map": "siam"}, title="Phone")
    state = replay.current_state(game)
    waiting = game.seats.exclude(number__in=game.engine.active_seats(state)).first().user
    page = login(waiting, width=360, height=800)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    page.wait_for_load_state("load")
    box = page.locator(".board-scroll").bounding_box()
    focus = page.locator(".board-scroll .board-focus").bounding_box()
    centre = focus["x"] + focus["width"] / 2
    assert box["x"] <= centre <= box["x"] + box["width"]


def test_on_a_tablet_the_valley_is_drawn_large_enough_to_tap(login, live_server):
    """Below the wide layout a field is a 40 px tap target (1770 px for the valley), as on
    a phone, and the valley can still be seen whole."""
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("tal", users, {}, title="Tablet")
    page = login(users[0], width=820, height=1100)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.locator("svg.valley").bounding_box()["width"] >= 1770
    assert page.locator("[data-board-zoom]").is_visible()


LOG_CUT = """() => {
    const box = document.querySelector('.log-entries');
    return box.scrollHeight - box.clientHeight;
}"""


def test_on_a_phone_the_history_shows_its_last_entry_whole(login, live_server):
    """The page's history (the last ten entries, long ones wrapping on a phone) did not
    fit its scrolling box, which cut the last entry in half; the full history scrolls."""
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("tal", users, {}, title="History")
    play_to(game, "worker", seed=2)
    page = login(users[0], width=360, height=800)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.locator(".log-entries li").count() == 10
    assert page.evaluate(LOG_CUT) <= 1  # nothing hidden below the box's edge
    page.goto(f"{live_server.url}/g/{game.pk}/?log=all")
    assert page.locator(".log-entries li").count() > 20
    assert page.evaluate(LOG_CUT) > 0  # the full history scrolls in its box
