"""Whole games of King of Siam (2 players) and King of Saba (3 players) played through the pages.

Every player has their own browser context. The script always takes the first thing the
board offers: a highlighted part of the map (by keyboard: focus and Enter), else a track
tile, else the first playable card, else Pass. Screenshots go to test-artifacts/.
"""

import re
import time

import pytest

from tests.factories import UserFactory, running_game

from .conftest import CSP_VIOLATIONS, check_axe, watch_csp

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#board-area"


def new_game(users, map_id):
    return running_game("siam", users, {"map": map_id}, title=f"Browser {map_id}")


def seat_to_move(game):
    game.refresh_from_db()
    seat = game.seats.filter(to_move=True).first()
    return None if seat is None else seat.number


def click_first_legal(page):
    """One click on the first legal thing; waits until HTMX has swapped in the new board."""
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    svg_links = page.locator(f"{BOARD} svg a.act")
    if svg_links.count():
        svg_links.first.focus()
        page.keyboard.press("Enter")
    else:
        for selector in (
            "button.tile-face.clickable",
            "button.card-face.clickable",
            "button.act-button",
        ):
            buttons = page.locator(f"{BOARD} {selector}")
            if buttons.count():
                buttons.first.click()
                break
        else:
            raise AssertionError("the player to move has nothing to click")
    page.wait_for_selector(f"{BOARD}:not([data-stale])", timeout=10_000)
    error = page.locator(f"{BOARD} .error")
    assert not error.count(), error.first.inner_text()


def shoot(page, artifacts, name):
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        page.locator(f"{BOARD} .siam-main").screenshot(
            path=str(artifacts / f"{name}-map-{width}.png")
        )
    page.set_viewport_size({"width": 1280, "height": 900})


def play_whole_game(game, pages, live_server, artifacts, name):
    url = f"{live_server.url}/g/{game.pk}/"
    for page in pages.values():
        page.goto(url)
    first = seat_to_move(game)
    mover = pages[first]
    assert mover.title().startswith("Your turn")
    watcher = pages[(first + 1) % len(pages)]
    assert not watcher.title().startswith("Your turn")

    # The first click plays a card; the other page learns of it by polling, without a reload.
    # The answer leaves out the chat lines the page has: the page keeps its own element.
    mover.evaluate("document.getElementById('chat-lines').dataset.kept = '1'")
    click_first_legal(mover)
    assert mover.evaluate("document.getElementById('chat-lines').dataset.kept") == "1"
    watcher.wait_for_selector(f"{BOARD} .siam-pending", timeout=9_000)

    moves = 1
    shot_taken = False
    current = first
    while True:
        seat = seat_to_move(game)
        if seat is None:
            break
        page = pages[seat]
        if seat != current:
            page.goto(url)  # quicker than waiting for the 4-second poll
            assert page.title().startswith("Your turn")
            current = seat
        if not shot_taken and page.locator(f"{BOARD} svg a.fol-act").count():
            shoot(page, artifacts, f"{name}-board")
            check_axe(page, "game page during a card")
            shot_taken = True
        click_first_legal(page)
        moves += 1
        if seat_to_move(game) not in (seat, None):
            # The tab title follows the swapped-in board.
            # A function, not an expression: Playwright would eval() an expression in
            # the page, which the site's CSP (rightly) forbids.
            page.wait_for_function("() => !document.title.startsWith('Your turn')", timeout=5_000)
        assert moves < 400, "the game does not end"
    assert shot_taken
    return moves


def check_result(game, pages, live_server, artifacts, name):
    game.refresh_from_db()
    assert game.status == "finished"
    winners = [game.seats.get(number=n).user.name for n in game.result["winners"]]
    for page in pages.values():
        page.goto(f"{live_server.url}/g/{game.pk}/")
        summary = page.locator(".siam-summary")
        assert summary.is_visible()
        text = summary.inner_text()
        assert "Final scoring" in text
        for name_ in winners:
            assert name_ in text
        assert ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners) in text
        assert page.locator(f"{BOARD} svg a.act, {BOARD} button.clickable").count() == 0
    page = pages[0]
    shoot(page, artifacts, f"{name}-final")
    check_axe(page, "finished game page")


def test_two_players_play_king_of_siam(login, live_server, artifacts):
    started = time.monotonic()
    users = [UserFactory(display_name="Anna"), UserFactory(display_name="Ben")]
    game = new_game(users, "siam")
    pages = {s.number: login(s.user) for s in game.seats.select_related("user")}
    moves = play_whole_game(game, pages, live_server, artifacts, "siam")
    check_result(game, pages, live_server, artifacts, "siam")
    print(f"King of Siam: {moves} clicks in {time.monotonic() - started:.1f} s")


def test_three_players_play_king_of_saba(login, live_server, artifacts):
    started = time.monotonic()
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben", "Cleo")]
    game = new_game(users, "saba")
    pages = {s.number: login(s.user) for s in game.seats.select_related("user")}
    moves = play_whole_game(game, pages, live_server, artifacts, "saba")
    check_result(game, pages, live_server, artifacts, "saba")
    print(f"King of Saba: {moves} clicks in {time.monotonic() - started:.1f} s")


def test_rules_pages_are_accessible(browser, live_server):
    page = browser.new_page()
    watch_csp(page)
    for path in ("/siam/rules/", "/siam/rules/saba/"):
        page.goto(live_server.url + path)
        assert "reconstruction" in page.content()
        check_axe(page, path)
    page.close()
    assert not CSP_VIOLATIONS


def test_the_csp_check_sees_a_blocked_inline_script(browser, live_server):
    page = browser.new_page()
    watch_csp(page)
    page.goto(live_server.url + "/")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.ran = 1'; document.body.appendChild(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.ran") is None
    assert any("inline script" in v for v in CSP_VIOLATIONS)
    CSP_VIOLATIONS.clear()
    page.close()


MAP_WIDTHS = """() => [document.querySelector('.siam-map .map-svg').getBoundingClientRect().width,
                      document.querySelector('.siam-map .map-scroll').clientWidth]"""


def test_on_a_phone_the_map_can_be_seen_whole(login, live_server, artifacts):
    """At tap size the map is wider than a phone and scrolls; its button shows it whole,
    as the Tal valley's does (one choice of this browser for both boards)."""
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("siam", users, {"map": "saba"}, title="Whole map")
    page = login(users[0], width=375, height=800)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    drawn, box = page.evaluate(MAP_WIDTHS)
    assert drawn > box
    button = page.locator("[data-board-zoom]")
    button.click()
    drawn, box = page.evaluate(MAP_WIDTHS)
    assert drawn <= box and button.get_attribute("aria-pressed") == "true"
    page.screenshot(path=str(artifacts / "siam-whole-map-375.png"))
    page.reload()
    assert page.evaluate(MAP_WIDTHS)[0] <= page.evaluate(MAP_WIDTHS)[1]


def test_the_arrow_keys_step_through_the_history(login, live_server):
    from games import play, replay

    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = new_game(users, "siam")
    for _ in range(2):
        seat = seat_to_move(game)
        user = game.seats.get(number=seat).user
        action = game.engine.legal_actions(replay.current_state(game), seat)[0]
        play.act(game.pk, user, action, None)
    page = login(users[0])
    page.goto(f"{live_server.url}/g/{game.pk}/?at=1")
    nav = page.locator(".history-nav strong")
    assert nav.inner_text() == "Position after move 1 of 2"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.location.search === '?at=0'")
    assert page.locator(".history-nav strong").inner_text() == "Position after move 0 of 2"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.location.search === '?at=1'")
    assert page.locator(".history-nav strong").inner_text() == "Position after move 1 of 2"
    # Typing in the chat moves the cursor, not the board.
    page.locator("#chat-form textarea").click()
    page.keyboard.type("hi")
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(300)
    assert page.evaluate("document.location.search") == "?at=1"


def test_a_keyboard_player_keeps_their_place_after_a_move(login, live_server):
    """Played with Tab and Enter, the new board does not send the focus back to the top
    of the page: it stays on the board (the same control, or the prompt)."""
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = new_game(users, "siam")
    seat = seat_to_move(game)
    page = login(game.seats.get(number=seat).user)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    for _ in range(3):
        control = page.locator(f"{BOARD} [data-act]:not([tabindex='-1'])").first
        control.focus()
        page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => !document.getElementById('board-area').dataset.stale"
            " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
        inside = "() => document.getElementById('board-area').contains(document.activeElement)"
        page.wait_for_function(inside, timeout=2000)
        if not page.locator(f"{BOARD} [data-act]").count():
            break


def test_a_screen_reader_hears_what_a_move_and_a_poll_brought(login, live_server):
    """The board is swapped in silently; the page's live region says what changed."""
    from playwright.sync_api import expect

    from games import play, replay, text

    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = new_game(users, "siam")
    seat = seat_to_move(game)
    me = game.seats.get(number=seat).user
    names = {s.number: s.user.name for s in game.seats.all()}
    page = login(me)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    news = page.locator("#board-news")
    assert news.get_attribute("aria-live") == "polite"
    assert news.text_content() == ""  # the page itself is read as usual: nothing repeated
    for _ in range(10):  # my moves, until the turn passes
        click_first_legal(page)
        state = replay.current_state(game)
        last = text.render(game.engine.view(state, seat)["log"][-1], names)
        # The news follows the swap once it settles: wait for it, do not race it.
        expect(news).to_contain_text(last)  # after what else the move brought
        if seat_to_move(game) != seat:
            break
        expect(news).to_contain_text("It is your turn.")
    other = game.seats.get(to_move=True).user
    expect(news).to_have_text(re.compile(re.escape(f"To move: {other.name}.") + "$"))
    while seat_to_move(game) != seat:  # the opponent's turn, played here
        action = game.engine.legal_actions(replay.current_state(game), seat_to_move(game))[0]
        play.act(game.pk, other, action, None)
    page.wait_for_function(  # the poll brings the opponent's turn
        "() => document.getElementById('board-news').textContent.includes('It is your turn.')",
        timeout=15_000,
    )
