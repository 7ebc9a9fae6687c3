"""Tal der Könige played in Chromium through the drawn board, with screenshots and axe.

Each player has their own browser context. A bot (``tests/tal_web/bot.py``) decides what
to do from the game's state; the test then does it the way a person would: a figure is
chosen by clicking it on the drawing, then its highlighted target; a stone to steal, a
site to take over and a position to build on are clicked on the drawing, the colour of
the stone in the panel beside it; bids in the market; turns end with the panel's button
(finishing a build turn with stones left asks to confirm). Nothing is clicked from the
list of all actions. The 3-player game is played on phones (375 px): there every board
a player acts on has each clickable thing checked for a 40 x 40 px tap target.
Screenshots go to test-artifacts/tal-*.png.
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
    """Click and wait until HTMX has swapped in and settled the new board (the board
    re-centres itself on settling); fail on an error message."""
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    locator.click()
    page.wait_for_function(SETTLED, polling="raf", timeout=10_000)
    error = page.locator(f"{BOARD} .error")
    assert not error.count(), error.first.inner_text()


SETTLED = """() => {
    const board = document.getElementById('board-area');
    return board && !board.dataset.stale
        && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling');
}"""

# Every clickable thing on the drawing: its box on the screen, what it is.
TAP_BOXES = """els => els.map(e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height, e.getAttribute('class'),
            e.getAttribute('aria-label')];
})"""


def check_taps(page):
    """At phone width everything clickable on the board is at least 40 x 40 px, and no
    two such things share more than a sliver (a figure may stand on its area's target:
    that is how it is chosen there)."""
    assert page.viewport_size["width"] == 375
    boxes = page.eval_on_selector_all(f"{BOARD} svg.valley a", TAP_BOXES)
    small = [b for b in boxes if b[2] < 40 or b[3] < 40]
    assert not small, small
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if {a[4].split()[0], b[4].split()[0]} == {"tgt", "pickfig"}:
                continue
            wide = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            high = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            assert min(wide, high) <= 5, (a, b)
    return len(boxes)


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
    width = page.viewport_size["width"]
    for shot in (1280, 375):
        page.set_viewport_size({"width": shot, "height": 900})
        if shot == 375:
            # at tap size, as a player chooses it (the valley opens whole on a phone)
            page.evaluate("() => localStorage.setItem('board-whole', '0')")
        page.evaluate("window.dispatchEvent(new Event('load'))")  # re-centre the board
        page.screenshot(path=str(artifacts / f"tal-{name}-{shot}.png"), full_page=True)
        if shot == 375:
            check_taps(page)
    page.set_viewport_size({"width": width, "height": 900})


def play_game(
    login, live_server, artifacts, users, options, prefix, time_budget, after=None, width=1280
):
    """Play until the game ends (or the time budget runs out); return the game.
    ``after(pages, url, state, seat, action)`` is called after each action. Played at
    ``width`` 375 (a phone), every board a player acts on has its tap targets checked."""
    started = time.monotonic()
    game = running_game("tal", users, options, title=f"Browser Tal {prefix}")
    seats = {s.number: s.user for s in game.seats.select_related("user")}
    pages = {n: login(u, width=width) for n, u in seats.items()}
    if width == 375:
        # Players on phones who chose the drawing at tap size (the valley's button): it
        # opens whole otherwise, where a tap zooms in rather than plays (test_tal_phone).
        for page in pages.values():
            page.add_init_script(
                "if (localStorage.getItem('board-whole') === null)"
                " localStorage.setItem('board-whole', '0');"
            )
    confirms = []
    for page in pages.values():
        page.on("dialog", lambda d: (confirms.append(d.message), d.accept()))
    url = f"{live_server.url}/g/{game.pk}/"
    loaded = {}
    rng = random.Random(5)
    shots = set()
    clicks = warned = taps = 0
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
        if width == 375:
            taps += check_taps(page)
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
    assert width != 375 or taps, "nothing was tapped on the board"
    return game, pages, url, shots, clicks, confirms, time.monotonic() - started


def background(locator) -> str:
    return locator.evaluate("e => getComputedStyle(e).backgroundColor")


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
    # The header marks each player in their colour on the board.
    for seat in (0, 1):
        header = watcher.locator(f".game-header .players .seat-{seat} .seat-dot")
        tag = watcher.locator(f"{BOARD} .seat-tag.s{seat}").first
        assert background(header) == background(tag)
    assert background(watcher.locator(".game-header .seat-0 .seat-dot")) != background(
        watcher.locator(".game-header .seat-1 .seat-dot")
    )
    shoot(watcher, artifacts, "2p-end")
    check_axe(watcher, "finished game")


def test_three_players_play_a_complete_expert_game_on_a_phone(login, live_server, artifacts):
    """Advanced and expert variants, three players on phones (375 px): unsold stones
    feed the Pharaoh pyramid, stripes score, every position of a level can be chosen.
    The game runs to its end by the rules, with points scored. While one player plans,
    the others see only that they are planning; the plan is drawn as arrows for its
    author."""
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
        time_budget=300,  # a busy 2-core machine took 132 to over 150 s
        after=plans_stay_secret,
        width=375,
    )
    print(f"Tal der Könige, 3 players: {clicks} actions, {took:.1f} s, status {game.status}")
    assert checked, "nobody planned"
    assert {"3p-auction", "3p-planning", "3p-building"} <= shots
    assert game.status == "finished", "the game did not end in time"
    state = replay.current_state(game)
    points = ENGINE.scores(state)
    assert sum(points) > 0  # pyramids were built and scored, not every stone dumped
    assert state.end_reason in ("pharaoh", "pyramids", "bag")
    watcher = pages[2]
    watcher.goto(url)
    summary = watcher.locator(f"{BOARD} .tal-summary")
    assert summary.is_visible()
    assert f"with {max(points)} points" in summary.inner_text()
    shoot(watcher, artifacts, "3p-end")
    check_axe(watcher, "finished 3-player game")


WIDTHS = """() => {
    const box = document.querySelector('.valley-scroll');
    return [document.querySelector('svg.valley').getBoundingClientRect().width, box.clientWidth];
}"""


def test_on_a_phone_the_valley_can_be_seen_whole(login, live_server, artifacts):
    """On a phone the valley opens whole; its button draws it large enough to tap (it then
    scrolls) and back, and the choice holds when the board is drawn again (a move, a
    refresh) until pressed again."""
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("tal", users, {}, title="Whole valley")
    url = f"{live_server.url}/g/{game.pk}/"
    page = login(users[0], width=375, height=800)
    page.goto(url)
    button = page.locator("[data-board-zoom]")
    drawn, box = page.evaluate(WIDTHS)
    assert drawn <= box and button.get_attribute("aria-pressed") == "true"
    page.screenshot(path=str(artifacts / "tal-whole-valley-375.png"), full_page=True)
    button.click()
    drawn, box = page.evaluate(WIDTHS)
    assert drawn > 3 * box  # scrolls: tap targets at full size
    assert button.get_attribute("aria-pressed") == "false"
    page.reload()
    drawn, box = page.evaluate(WIDTHS)
    assert drawn > 3 * box
    page.locator("[data-board-zoom]").click()
    drawn, box = page.evaluate(WIDTHS)
    assert drawn <= box
    page.reload()
    drawn, box = page.evaluate(WIDTHS)
    assert drawn <= box
    # On a wide screen the whole valley is always shown and the button is not needed.
    wide = login(users[1], width=1280)
    wide.goto(url)
    assert not wide.locator("[data-board-zoom]").is_visible()
