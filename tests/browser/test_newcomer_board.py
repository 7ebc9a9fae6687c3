"""What a newcomer tripped over on the King of Siam/Saba board, tried again in Chromium:
clicks on a province's label, tap-target sizes on a phone, the history URL, the
"since you last looked" marks (screenshots), and the in-tab turn notice."""

import pytest

from games import play, replay
from games.models import Move
from tests.factories import UserFactory, running_game

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#board-area"
KING_CARD = {"siam": "maharacha", "saba": "saba"}


def to_move(game):
    game.refresh_from_db()
    state = replay.current_state(game)
    seat = sorted(game.engine.active_seats(state))[0]
    return seat, game.seats.get(number=seat).user, state


def advance(game, n):
    for _ in range(n):
        seat, user, state = to_move(game)
        play.act(game.pk, user, game.engine.legal_actions(state, seat)[0], None)


def swap_board(page, click):
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    click()
    page.wait_for_selector(f"{BOARD}:not([data-stale])", timeout=10_000)


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("map_id", ["siam", "saba"])
def test_a_click_on_a_province_label_picks_that_province(login, live_server, map_id):
    users = [UserFactory() for _ in range(2 if map_id == "siam" else 3)]
    game = running_game("siam", users, {"map": map_id})
    seat, user, _ = to_move(game)
    play.act(game.pk, user, {"type": "play", "card": KING_CARD[map_id]}, None)
    page = login(user, width=375, height=800)
    provinces = [p["id"] for p in game.engine.view(replay.current_state(game), seat)["provinces"]]
    parts = ["text.pname", "text.fol-count"]
    for i, province in enumerate(provinces):
        page.goto(f"{live_server.url}/g/{game.pk}/")
        label = page.locator(f'g.plaque[data-province="{province}"] {parts[i % 2]}').first
        label.scroll_into_view_if_needed()
        x, y = centre(label.bounding_box())
        swap_board(page, lambda x=x, y=y: page.mouse.click(x, y))
        last = Move.objects.filter(game=game, undone=False).order_by("-number").first()
        assert last.action == {"type": "tile", "province": province}, (province, parts[i % 2])
        play.undo(game.pk, user, None)


def test_tap_targets_are_40_px_on_a_phone(login, live_server):
    users = [UserFactory(), UserFactory(), UserFactory()]
    game = running_game("siam", users, {"map": "saba"})
    # Play until the player to move must place followers: then the chips are links.
    for _ in range(60):
        seat, user, state = to_move(game)
        if any(a["type"] == "place" for a in game.engine.legal_actions(state, seat)):
            break
        advance(game, 1)
    page = login(user, width=375, height=800)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    targets = page.locator(f"{BOARD} svg a.act, {BOARD} button.act-button, {BOARD} .clickable")
    assert targets.count() > 0
    sizes = [targets.nth(i).bounding_box() for i in range(targets.count())]
    small = [
        (round(b["width"]), round(b["height"]))
        for b in sizes
        if b and min(b["width"], b["height"]) < 40
    ]
    assert not small, small
    chips = page.locator(f"{BOARD} a.fol-act rect.hit")
    if chips.count():
        box = chips.first.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40, box
    # The page itself does not scroll sideways (only the map box does).
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.locator(".site-header").bounding_box()["height"] <= 70
    # The chat form sits in the chat section, not under the Resign button.
    assert page.locator("section.chat form.chat-form").count() == 1


def test_history_buttons_push_the_url_of_the_position_shown(login, live_server):
    users = [UserFactory(), UserFactory()]
    game = running_game("siam", users, {"map": "siam"})
    advance(game, 25)
    page = login(users[0])
    page.goto(f"{live_server.url}/g/{game.pk}/?at=19")
    for name, at in (("Forward", 20), ("Forward", 21), ("Back", 20), ("First", 0)):
        swap_board(
            page,
            lambda name=name: page.locator(".history-nav").get_by_role("link", name=name).click(),
        )
        page.wait_for_url(f"**/g/{game.pk}/?at={at}")
        assert f"after move {at} of" in page.locator(".history-nav strong").inner_text()
    page.goto(f"{live_server.url}/g/{game.pk}/?at=9999")
    assert "no position" in page.locator("main").inner_text()
    page.get_by_role("link", name="Show the latest position").click()
    page.wait_for_url(f"**/g/{game.pk}/")


def test_a_returning_player_sees_what_changed(login, live_server, artifacts):
    users = [UserFactory(username="ada"), UserFactory(username="ben"), UserFactory(username="cy")]
    game = running_game("siam", users, {"map": "saba"})
    advance(game, 14)
    seat, returning, _ = to_move(game)
    page = login(returning)
    page.goto(f"{live_server.url}/g/{game.pk}/")  # the first look
    page.goto(f"{live_server.url}/")  # and away: moves watched on the game page are no news
    advance(game, 1)  # their own move
    for _ in range(40):  # the others play until it is their turn again
        other, user, _state = to_move(game)
        if other == seat:
            break
        advance(game, 1)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.locator(".since").count() == 1
    assert page.locator(".log-entries mark:not(.last)").count() >= 1
    # marked or not, every entry's move number (and so its text) starts in one column:
    # its line's left edge (the mark's bar and "new" tag stand outside that column)
    offsets = page.eval_on_selector_all(
        ".log-entries .move-no",
        """els => els.map(e => Math.round(e.getBoundingClientRect().left
                                          - e.closest('li').getBoundingClientRect().left))""",
    )
    assert offsets and set(offsets) == {0}, offsets
    assert page.locator("g.plaque.last").count() >= 1
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        check_axe(page, f"returning player at {width}px")
        name = f"siam-returning-player-{width}.png"
        page.screenshot(path=str(artifacts / name), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    swap_board(page, lambda: page.get_by_role("button", name="Mark as seen").click())
    assert page.locator(".since").count() == 0
    assert page.locator(".log-entries mark:not(.last)").count() == 0
    assert page.locator("g.plaque.last").count() >= 1  # the last move stays marked


def test_turn_notice_in_the_open_tab(login, live_server):
    users = [UserFactory(), UserFactory()]
    game = running_game("siam", users, {"map": "siam"})
    seat, mover, _ = to_move(game)
    waiting = next(u for u in users if u != mover)
    page = login(waiting)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert (
        page.locator("[data-tab-notices] input[data-notice]:checked").count() == 0
    )  # off by default
    page.locator("[data-tab-notices] summary").click()
    page.get_by_label("Play a short sound").check()
    page.get_by_label("Show a browser notification").check()
    page.reload()
    assert page.locator("[data-tab-notices] input[data-notice]:checked").count() == 2
    assert page.evaluate("document.documentElement.dataset.turnNotice") is None
    while to_move(game)[1] == mover:
        advance(game, 1)
    page.wait_for_function("() => document.documentElement.dataset.turnNotice", timeout=15_000)
    assert page.evaluate("document.documentElement.dataset.turnNotice") == "sound notify"


def test_the_rules_tables_fit_a_phone(browser, live_server):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    for lang in ("en", "de"):
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        for path in ("/siam/rules/", "/siam/rules/saba/"):
            page.goto(live_server.url + path)
            widths = page.evaluate(
                "() => [...document.querySelectorAll('.siam-rules table')].map("
                "t => [t.getBoundingClientRect().width, t.parentElement.clientWidth])"
            )
            assert widths, path
            for table, room in widths:
                assert table <= room + 0.5, (lang, path, table, room)
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()
