"""A King of Siam turn and a Tal der Könige round played with the keyboard alone, followed
by what a screen reader is given; both boards and the settings in both themes.

Keyboard alone: the players only press Tab, Enter and Space (``page.keyboard``), never
click; the test reads which element has the focus to know when to stop tabbing. Each board
a player acts on is checked in the accessibility tree: every link and button on it has a
name. The other player's page announces the move and "It is your turn" in its live region
(``#board-news``, role status) when its poll brings the new board.

Both themes: axe-core finds nothing serious on either board, light and dark (the device's
choice, emulated) and on the settings page with "dark" chosen there. Screenshots go to
test-artifacts/theme-*.png (phone size, English and German).
"""

import re

import pytest

from games import replay, text
from tests.factories import UserFactory, running_game

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#board-area"
PHONE = {"width": 390, "height": 844}
SETTLED = """() => {
    const board = document.getElementById('board-area');
    return board && !board.dataset.stale
        && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling');
}"""
MAX_TABS = 400
# Everything the page's live region says, as a screen reader would hear it.
LISTEN = """() => {
    const region = document.getElementById('board-news');
    window.said = [];
    new MutationObserver(() => window.said.push(region.textContent))
        .observe(region, {childList: true, characterData: true, subtree: true});
}"""
# The focused element's name if it matches the selector (read only to know when to stop).
FOCUSED = """s => {
    const e = document.activeElement;
    return e && e.matches(s) ? (e.getAttribute('aria-label') || e.textContent).trim() : null;
}"""


def tab_to(page, selector, backwards=False):
    """Press Tab until the focused element matches ``selector``; return its description."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        found = page.evaluate(FOCUSED, selector)
        if found is not None:
            return found
    raise AssertionError(f"Tab never reached {selector}")


def press(page, key="Enter"):
    """Press a key on the focused target and wait for the new board; fail on an error."""
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    page.keyboard.press(key)
    page.wait_for_function(SETTLED, polling="raf", timeout=10_000)
    error = page.locator(f"{BOARD} .error")
    assert not error.count(), error.first.inner_text()


def unnamed_targets(page):
    """The links and buttons on the board that a screen reader could not name."""
    tree = page.locator(BOARD).aria_snapshot()
    return [line for line in tree.splitlines() if re.match(r"\s*- (link|button)\s*(:|$)", line)]


def my_turn(page):
    return page.locator(BOARD).get_attribute("data-my-turn") == "1"


def announced(page, text):
    """Wait until the page's live region (a status, read out politely) says ``text``."""
    region = page.get_by_role("status").filter(has_text=text)
    region.wait_for(state="attached", timeout=15_000)
    assert page.locator("#board-news").get_attribute("aria-live") == "polite"
    return page.locator("#board-news").inner_text()


def open_pages(login, game, live_server):
    users = {s.number: s.user for s in game.seats.all()}
    pages = {}
    for number, user in users.items():
        page = login(user)
        page.on("dialog", lambda dialog: dialog.accept())  # "end with stones left?": Enter
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        pages[number] = page
    mover = next(n for n, p in pages.items() if my_turn(p))
    return pages, mover


def shoot_themes(page, artifacts, name, axe=True):
    """axe in both themes (the device's, emulated), and screenshots of each: the board
    from its top, one screen at a time (a phone's screen, to be looked at)."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        if axe:
            check_axe(page, f"{name} ({scheme})")
        box = page.locator(BOARD).bounding_box()
        top = page.evaluate("window.scrollY") + box["y"]
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        for n in range(min(4, int(box["height"] // height) + 1)):
            clip = {"x": 0, "y": top + n * height, "width": width, "height": height}
            path = artifacts / f"theme-{name}-{scheme}-{n + 1}.png"
            page.screenshot(path=str(path), full_page=True, clip=clip)
    page.emulate_media(color_scheme="light")


SIAM_TARGETS = (
    "#board-area svg a.act:not([tabindex='-1'])",
    "#board-area button.tile-face.clickable",
    "#board-area button.card-face.clickable",
)


def test_a_king_of_siam_turn_by_keyboard_alone(login, live_server, artifacts):
    game = running_game("siam", [UserFactory(), UserFactory()], title="Keys")
    pages, mover = open_pages(login, game, live_server)
    page, watcher = pages[mover], pages[1 - mover]
    page.set_viewport_size(PHONE)
    assert unnamed_targets(page) == []
    watcher.evaluate(LISTEN)
    logged = len(game.engine.view(replay.current_state(game), 1 - mover)["log"])
    # A card first (passing would be a turn too, but no target of the map would be tried),
    # then whatever the card asks for: a province or follower on the map, a track tile.
    card = tab_to(page, "#board-area button.card-face.clickable")
    press(page, "Space")
    steps = [card]
    while my_turn(page):
        assert unnamed_targets(page) == []
        kind = next(s for s in SIAM_TARGETS if page.locator(s).count())
        steps.append(tab_to(page, kind))
        press(page)
        assert len(steps) < 12, steps
    assert page.locator("#board-news").get_attribute("role") == "status"
    # The other player hears what was played and that it is their turn.
    news = announced(watcher, "It is your turn.")
    assert news.startswith(game.seats.get(number=mover).user.name), news
    # Every step of the turn was said, not only the last (one poll may bring them all).
    names = {s.number: s.user.name for s in game.seats.all()}
    log = game.engine.view(replay.current_state(game), 1 - mover)["log"][logged:]
    turn = [text.render(entry, names) for entry in log]
    said = " ".join(watcher.evaluate("window.said"))
    assert len(turn) >= 2 and [t for t in turn if t not in said] == [], (turn, said)
    assert unnamed_targets(watcher) == []
    watcher.set_viewport_size(PHONE)
    shoot_themes(watcher, artifacts, "siam-board-en")
    # King of Saba's map, as a German player sees it.
    players = [UserFactory(language="de"), UserFactory()]
    saba = running_game("siam", players, {"map": "saba"}, title="Saba")
    german = login(players[0], **PHONE)
    german.goto(f"{live_server.url}{saba.get_absolute_url()}")
    shoot_themes(german, artifacts, "saba-board-de")


def test_a_tal_der_koenige_round_by_keyboard_alone(login, live_server, artifacts):
    game = running_game("tal", [UserFactory(), UserFactory()], title="Keys")
    pages, first = open_pages(login, game, live_server)
    assert pages[first].locator("section.tal").get_attribute("data-round") == "1"
    moved_overseer = set()
    turns = heard = 0
    round_now = "1"
    while round_now == "1":
        seat = next((n for n, p in pages.items() if my_turn(p)), None)
        if seat is None:  # the other page has not polled yet: its live region tells it
            for page in pages.values():
                page.reload()
            continue
        page = pages[seat]
        assert unnamed_targets(page) == []
        phase = page.locator("section.tal").get_attribute("data-phase")
        if phase == "bid" and page.locator("#board-area .tal-market button.bid-btn").count():
            tab_to(page, "#board-area .tal-market button.bid-btn")  # one tile on a group
            press(page)
        if phase == "overseer" and seat not in moved_overseer:
            # Choose an overseer in the panel, then a highlighted field on the drawing.
            tab_to(page, "#board-area .tal-picker a.pick")
            press(page)
            assert unnamed_targets(page) == []
            target = tab_to(page, "#board-area svg.valley a.tgt")
            assert target
            press(page)
            moved_overseer.add(seat)
        if phase == "build" and page.locator("#board-area svg.valley a.pickslot").count():
            tab_to(page, "#board-area svg.valley a.pickslot")  # a position, then a colour
            press(page)
            tab_to(page, "#board-area .tal-build button.build-btn")
            press(page)
        if not my_turn(page):
            continue
        tab_to(page, "#board-area .tal-ends button")  # done: end the bids, moves, building
        press(page)
        turns += 1
        assert turns < 30
        round_now = page.locator("section.tal").get_attribute("data-round")
        if not my_turn(page) and round_now == "1":
            other = pages[1 - seat]
            if heard < 2:  # each player hears it once from their poll; then no more waiting
                assert announced(other, "It is your turn.")
                heard += 1
            else:
                other.reload()
    assert moved_overseer == {0, 1}
    pages[first].set_viewport_size(PHONE)
    pages[first].reload()
    shoot_themes(pages[first], artifacts, "tal-board-en")
    # The same valley as a German onlooker sees it.
    german = login(UserFactory(language="de"), **PHONE)
    german.goto(f"{live_server.url}{game.get_absolute_url()}")
    shoot_themes(german, artifacts, "tal-board-de", axe=False)  # the same markup as above


def test_dark_colours_chosen_in_the_settings_by_keyboard(login, live_server, artifacts):
    from accounts.models import User

    user = UserFactory(language="de")
    page = login(user, **PHONE)
    page.goto(f"{live_server.url}/settings/")
    assert page.locator("html").get_attribute("data-theme") is None
    light = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    page.screenshot(path=str(artifacts / "theme-settings-de-light.png"))
    tab_to(page, "select[name=theme]")
    page.keyboard.press("ArrowDown")  # wie mein Gerät es einstellt -> hell
    page.keyboard.press("ArrowDown")  # -> dunkel
    tab_to(page, "form.stacked button")
    page.keyboard.press("Enter")
    page.locator("html[data-theme=dark]").wait_for()
    user.refresh_from_db()
    assert user.theme == User.Theme.DARK
    # The page is dark whatever the device says.
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") != light
    check_axe(page, "settings, dark (de)")
    page.screenshot(path=str(artifacts / "theme-settings-de-dark.png"))
    User.objects.filter(pk=user.pk).update(language="en")
    page.reload()
    assert page.locator("select[name=theme] option:checked").inner_text() == "dark"
    page.screenshot(path=str(artifacts / "theme-settings-en-dark.png"))
