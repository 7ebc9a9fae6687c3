"""Tal der Könige played in Chromium through the drawn board, with screenshots and axe.

Each player has their own browser context. A bot (``tests/tal_web/bot.py``) decides what
to do from the game's state; the test then does it the way a person would: a figure is
chosen by clicking it on the drawing, then its highlighted target; a stone to steal, a
site to take over and a position to build on are clicked on the drawing, the colour of
the stone in the panel beside it; bids in the market; turns end with the panel's button
(finishing a build turn with stones left asks to confirm). Nothing is clicked from the
list of all actions. Screenshots go to test-artifacts/tal-*.png.
"""

import json
import random
import time

import pytest

from games import replay
from games.actions import compact_json
from tal.engine import ENGINE
from tests.factories import UserFactory, running_game
from tests.tal_web import bot

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#board-area"


def css_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def click(page, locator):
    """Click and wait until HTMX has swapped in the new board; fail on an error message."""
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    locator.click()
    page.wait_for_selector(f"{BOARD}:not([data-stale])", timeout=10_000)
    error = page.locator(f"{BOARD} .error")
    assert not error.count(), error.first.inner_text()


def on_drawing(page, kind, action):
    """The link on the drawn board that carries ``action``."""
    vals = json.dumps({"action": compact_json(action)}, separators=(",", ":"))
    return page.locator(f"{BOARD} svg.valley a.{kind}[hx-vals={css_string(vals)}]")


def button(page, where, action):
    return page.locator(f"{BOARD} {where} button[data-act={css_string(compact_json(action))}]")


def do(page, action, seat, state):
    """Carry out ``action`` through the page of ``seat``."""
    kind = action["type"]
    if kind == "bid":
        return click(page, button(page, ".tal-market", action))
    if kind in ("move", "plan"):
        figure = action.get("figure", "overseer")
        key = f"{figure[0]}{action['index']}"
        if not page.locator(f"{BOARD} a.pick.chosen[href='?fig={key}']").count():
            click(page, page.locator(f"{BOARD} svg.valley a.pickfig[href='?fig={key}']").first)
        return click(page, on_drawing(page, "tgt", action))
    if kind in ("steal", "takeover"):
        return click(page, on_drawing(page, kind, action))
    if kind == "build":
        slot = f"{action['site']}-{action['slot']}"
        chosen = page.locator(f"{BOARD} .tal-build button.build-btn").first
        if (
            not chosen.count()
            or json.loads(chosen.get_attribute("data-act"))["slot"] != action["slot"]
            or json.loads(chosen.get_attribute("data-act"))["site"] != action["site"]
        ):
            click(page, page.locator(f"{BOARD} svg.valley a.pickslot[href='?slot={slot}']"))
        return click(page, button(page, ".tal-build", action))
    return click(page, button(page, ".tal-ends", action))


def shoot(page, artifacts, name):
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("window.dispatchEvent(new Event('load'))")  # re-centre the board
        page.screenshot(path=str(artifacts / f"tal-{name}-{width}.png"), full_page=True)
        if width == 375:
            # fields and areas to move to are tap targets of at least 40 px on a phone
            sizes = page.eval_on_selector_all(
                f"{BOARD} svg.valley a.tgt",
                "els => els.map(e => [Math.min(e.getBoundingClientRect().width,"
                " e.getBoundingClientRect().height), e.outerHTML.slice(-120)])",
            )
            assert all(size >= 39.5 for size, _ in sizes), [s for s in sizes if s[0] < 39.5]
    page.set_viewport_size({"width": 1280, "height": 900})


def play_game(login, live_server, artifacts, users, options, prefix, time_budget, after=None):
    """Play until the game ends (or the time budget runs out); return the game.
    ``after(pages, url, state, seat, action)`` is called after each action."""
    started = time.monotonic()
    game = running_game("tal", users, options, title=f"Browser Tal {prefix}")
    seats = {s.number: s.user for s in game.seats.select_related("user")}
    pages = {n: login(u) for n, u in seats.items()}
    confirms = []
    for page in pages.values():
        page.on("dialog", lambda d: (confirms.append(d.message), d.accept()))
    url = f"{live_server.url}/g/{game.pk}/"
    loaded = {}
    rng = random.Random(5)
    shots = set()
    clicks = warned = 0
    while time.monotonic() - started < time_budget:
        game.refresh_from_db()
        state = replay.current_state(game)
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        page = pages[seat]
        if loaded.get(seat) != game.version:
            page.goto(url)
        assert page.title().startswith("Your turn")
        action = bot.choose(state, seat, ENGINE.legal_actions(state, seat), rng)
        name = {"bid": "auction", "plan": "planning", "build": "building"}.get(action["type"])
        ready = (
            name == "auction"
            and state.round > 1
            or name == "planning"
            and state.plans[seat][0] is not None
            or name == "building"
        )
        if ready and f"{prefix}-{name}" not in shots:
            shoot(page, artifacts, f"{prefix}-{name}")
            check_axe(page, f"{prefix} {name}")
            shots.add(f"{prefix}-{name}")
        if action["type"] == "end_build" and state.supply[seat]:
            warned += 1
        do(page, action, seat, state)
        clicks += 1
        game.refresh_from_db()
        loaded = {seat: game.version}
        if after is not None and after(pages, url, state, seat, action):
            loaded = {}
    game.refresh_from_db()
    # finishing a build turn with stones left asked once, and only then
    assert len(confirms) == warned, confirms
    assert all("Pharaoh pyramid" in c for c in confirms)
    return game, pages, url, shots, clicks, confirms, time.monotonic() - started


def test_two_players_play_a_complete_game_on_the_drawn_board(login, live_server, artifacts):
    users = [UserFactory(display_name="Anna"), UserFactory(display_name="Carla K.")]
    game, pages, url, shots, clicks, confirms, took = play_game(
        login, live_server, artifacts, users, {"advanced": True}, "2p", time_budget=150
    )
    print(f"Tal der Könige, 2 players: {clicks} actions, {took:.1f} s, status {game.status}")
    assert game.status == "finished", "the game did not end in time"
    assert {"2p-auction", "2p-planning", "2p-building"} <= shots
    state = replay.current_state(game)
    points = ENGINE.scores(state)
    assert sum(points) > 0  # pyramids were built and scored, not every stone dumped
    assert state.end_reason in ("pharaoh", "pyramids", "bag")
    watcher = pages[0]
    watcher.goto(url)
    summary = watcher.locator(f"{BOARD} .tal-summary")
    assert summary.is_visible()
    assert f"with {max(points)} points" in summary.inner_text()
    shoot(watcher, artifacts, "2p-end")
    check_axe(watcher, "finished game")


def test_three_players_play_the_expert_game_with_secret_plans(login, live_server, artifacts):
    """Advanced and expert variants: unsold stones feed the Pharaoh pyramid, stripes
    score, every position of a level can be chosen. While one player plans, the others
    see only that they are planning; the plan is drawn as arrows for its author.

    A whole 3-player game takes about 250 clicks, too long for this machine: the test
    plays for a fixed time (past the first plans and builds) and checks the end only if
    it got there."""
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben", "Carla K.")]
    checked = []

    def plans_stay_secret(pages, url, state, seat, action):
        if action["type"] != "plan" or checked:
            return False
        mine = pages[seat]
        assert mine.locator(f"{BOARD} svg.valley line.plan-arrow").count() or (
            action["to"] == state.overseers[seat][action["index"]]
        )
        other = pages[(seat + 1) % 3]
        other.goto(url)
        assert not other.locator(f"{BOARD} svg.valley line.plan-arrow").count() or (
            # the other seat's own plan, if it has begun one
            other.locator(f"{BOARD} .tal-myplan").count()
        )
        status = other.locator(f"{BOARD} .tal-status").inner_text()
        seats = other.locator(f"{BOARD} .tal-seats").inner_text()
        assert action["to"] not in status + seats or action["to"] in (
            state.overseers[(seat + 1) % 3] + state.workers[(seat + 1) % 3]
        )
        assert "planning" in seats
        checked.append(action)
        return True  # the other page was reloaded: the loop must not trust it

    game, pages, url, shots, clicks, confirms, took = play_game(
        login,
        live_server,
        artifacts,
        users,
        {"advanced": True, "expert": True},
        "3p",
        time_budget=55,
        after=plans_stay_secret,
    )
    print(f"Tal der Könige, 3 players: {clicks} actions, {took:.1f} s, status {game.status}")
    assert checked, "nobody planned"
    assert {"3p-planning", "3p-building"} <= shots
    if game.status == "finished":
        state = replay.current_state(game)
        assert sum(ENGINE.scores(state)) > 0
        watcher = pages[2]
        watcher.goto(url)
        assert watcher.locator(f"{BOARD} .tal-summary").is_visible()
        shoot(watcher, artifacts, "3p-end")
        check_axe(watcher, "finished 3-player game")
