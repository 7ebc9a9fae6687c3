"""A 2-player Tal der Könige game played through the pages, with screenshots and axe checks.

Every player has their own browser context. The script plays a little in every phase
(one bid, overseers onto free sites, workers onto own sites, every possible stone built,
a plan for both overseers) and otherwise ends its turn, so a game goes quickly.
Screenshots go to test-artifacts/tal-board-*.png.
"""

import time

import pytest

from tests.factories import UserFactory, running_game

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#board-area"
MAX_ROUNDS = 4
TIME_BUDGET = 60  # seconds of play before the script stops at the end of a round


def new_game(users):
    return running_game("tal", users, title="Browser Tal")


def seats_to_move(game):
    game.refresh_from_db()
    return sorted(game.seats.filter(to_move=True).values_list("number", flat=True))


def click(page, locator):
    """Click and wait until HTMX has swapped in the new board; fail on an error message."""
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    locator.click()
    page.wait_for_selector(f"{BOARD}:not([data-stale])", timeout=10_000)
    error = page.locator(f"{BOARD} .error")
    assert not error.count(), error.first.inner_text()


def visible(page, selector):
    loc = page.locator(f"{BOARD} {selector}").filter(visible=True)
    return loc.first if loc.count() else None


def shoot(page, artifacts, name):
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(artifacts / f"tal-board-{name}-{width}.png"), full_page=True)
        for part in ("tal-status", "tal-market", "region"):
            loc = page.locator(f"{BOARD} .{part}").first
            if loc.count():
                loc.screenshot(path=str(artifacts / f"tal-board-{name}-{part}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def end_turn(page):
    click(page, page.locator(f"{BOARD} .tal-ends button.end").first)


def take_turn(page, seat, done):
    """One turn (or plan) of the seat whose page this is; ``done`` counts non-end clicks."""
    tal = page.locator(f"{BOARD} section.tal")
    phase = tal.get_attribute("data-phase")
    key = (tal.get_attribute("data-round"), phase, seat)
    n = done.get(key, 0)
    if phase == "bid" and n < 1:
        buttons = page.locator(f"{BOARD} .group:nth-child({seat + 1}) .bid-btn")
        if buttons.count():
            done[key] = n + 1
            return click(page, buttons.last)
    if phase in ("overseer", "worker", "plan") and n < 2:
        own = f".site.owned.o{seat}" if phase == "worker" else ".site:not(.out):not(.owned)"
        for pick in page.locator(f"{BOARD} .tal-picker label.pick").all()[n:]:
            pick.click()
            target = visible(page, f"{own} .field .mv button") or (
                visible(page, ".mv button") if phase == "plan" else None
            )
            if target is not None:
                done[key] = n + 1
                return click(page, target)
        done[key] = 2
    if phase == "build":
        button = visible(page, "button.build-btn")
        if button is not None:
            return click(page, button)
    if phase == "steal" and n < 1 and visible(page, "button.stone.steal") is not None:
        done[key] = 1
        return click(page, visible(page, "button.stone.steal"))
    if phase == "takeover" and n < 1 and visible(page, ".takeover button") is not None:
        done[key] = 1
        return click(page, visible(page, ".takeover button"))
    end_turn(page)


def test_two_players_play_tal(login, live_server, artifacts):
    started = time.monotonic()
    users = [UserFactory(display_name="Anna"), UserFactory(display_name="Ben")]
    game = new_game(users)
    pages = {s.number: login(s.user) for s in game.seats.select_related("user")}
    url = f"{live_server.url}/g/{game.pk}/"
    for page in pages.values():
        page.goto(url)
        assert page.locator(f"{BOARD} section.tal .tal-market").is_visible()

    done: dict = {}
    shots = set()
    clicks = 0
    current = None
    while True:
        active = seats_to_move(game)
        if not active:
            break
        seat = active[0]
        page = pages[seat]
        if seat != current or len(active) > 1:
            page.goto(url)
            current = seat
        assert page.title().startswith("Your turn")
        tal = page.locator(f"{BOARD} section.tal")
        phase, rnd = tal.get_attribute("data-phase"), int(tal.get_attribute("data-round"))
        if phase == "bid" and (rnd > MAX_ROUNDS or time.monotonic() - started > TIME_BUDGET):
            break
        for name, ready in (
            ("plan", phase == "plan" and done.get((str(rnd), phase, seat)) == 1),
            ("build", phase == "build" and visible(page, "button.build-btn") is not None),
            ("bid", phase == "bid" and rnd > 1),
        ):
            if ready and name not in shots:
                shoot(page, artifacts, name)
                check_axe(page, f"{name} phase")
                shots.add(name)
        take_turn(page, seat, done)
        clicks += 1
        assert clicks < 600, "the game does not end"

    game.refresh_from_db()
    assert {"plan", "build", "bid"} <= shots
    # the watcher's page still renders with the board (no actions of their own)
    watcher = pages[1 - (current or 0)]
    watcher.goto(url)
    assert watcher.locator(f"{BOARD} section.tal .tal-board").is_visible()
    if game.status == "finished":
        shoot(watcher, artifacts, "final")
        check_axe(watcher, "finished game")
    print(
        f"Tal der Könige: {clicks} clicks, status {game.status}, {time.monotonic() - started:.1f} s"
    )
