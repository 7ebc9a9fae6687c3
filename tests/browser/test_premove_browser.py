"""Queuing a premove on the board, in Chromium, in both titles: the waiting player opens
the planning board, clicks their next turn on it, and sees it played when the other
player hands over (their page learns of it by polling)."""

import pytest

from games import play, replay
from games.models import Premove
from tests.factories import UserFactory, running_game
from tests.tal_web.conftest import play_to

from .conftest import check_axe
from .test_tal_browser import SETTLED, on_drawing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#board-area"


def swap(page, locator, keyboard=False):
    """A click (or focus and Enter, for the links of a drawing) that htmx answers with a
    new board; waits until it has settled, and fails on an error message."""
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    if keyboard:
        locator.focus()
        page.keyboard.press("Enter")
    else:
        locator.click()
    page.wait_for_function(SETTLED, polling="raf", timeout=10_000)
    error = page.locator(f"{BOARD} .error")
    assert not error.count(), error.first.inner_text()


def roles(game):
    mover = game.seats.get(to_move=True).user
    return mover, game.seats.exclude(user=mover).get().user


def test_a_whole_card_queued_on_the_king_of_siam_board(login, live_server, artifacts):
    game = running_game("siam", [UserFactory(display_name="Anna"), UserFactory(display_name="Ben")])
    mover, waiting = roles(game)
    page = login(waiting)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    swap(page, page.get_by_role("link", name="Plan your next turn"))
    assert page.url.endswith(f"/g/{game.pk}/plan")
    assert "Your next turn" in page.locator(f"{BOARD} .siam-status").inner_text()
    card = page.locator(f"{BOARD} button.card-face.clickable").first
    name = card.locator(".cname").inner_text()
    swap(page, card)
    queued = page.locator(f"{BOARD} .planning ol.queued li")
    assert queued.count() == 1 and name in queued.first.inner_text()
    while not page.locator(f"{BOARD} .planning .notice").count():  # the card's steps
        swap(page, page.locator(f"{BOARD} svg a.act").first, keyboard=True)
    steps = queued.count()
    assert (
        steps >= 3
        and "nothing more can be queued" in page.locator(f"{BOARD} .planning").inner_text()
    )
    page.screenshot(path=str(artifacts / "premove-siam-planning.png"), full_page=True)
    check_axe(page, "the planning board")
    # Nothing was played yet: the other player sees nothing of it.
    assert game.moves.count() == 0
    assert len(Premove.objects.get(user=waiting).actions) == steps
    play.act(game.pk, mover, {"type": "pass"}, None)  # the hand-over plays the queue
    seat = game.seats.get(user=waiting).number
    assert game.moves.filter(seat=seat).count() == steps
    # The planning page polls: it shows the game as it is now, the queue gone.
    page.wait_for_selector(f"{BOARD} .log-entries >> text={name}", timeout=12_000)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert "Queued for your next turn" not in page.locator(BOARD).inner_text()


def test_a_worker_move_queued_on_the_tal_board(login, live_server, artifacts):
    game = running_game("tal", [UserFactory(display_name="Anna"), UserFactory(display_name="Ben")])
    play_to(game, "worker")
    mover, waiting = roles(game)
    page = login(waiting)
    page.goto(f"{live_server.url}/g/{game.pk}/plan")
    assert "Planning your next turn" in page.locator(BOARD).inner_text()
    seat = game.seats.get(user=waiting).number
    state = replay.current_state(game)
    pick = page.locator(f"{BOARD} svg.valley a.pickfig").first
    key = pick.get_attribute("href").split("=")[1]
    swap(page, pick, keyboard=True)
    target = page.locator(f"{BOARD} svg.valley a.tgt").first
    swap(page, target, keyboard=True)
    queued = page.locator(f"{BOARD} .planning ol.queued li")
    assert queued.count() == 1 and f"Move worker {int(key[1:]) + 1}" in queued.first.inner_text()
    swap(page, page.locator(f"{BOARD} .tal-ends button").first)
    assert queued.count() == 2
    page.screenshot(path=str(artifacts / "premove-tal-planning.png"), full_page=True)
    queue = Premove.objects.get(user=waiting).actions
    assert [item["action"]["type"] for item in queue] == ["move", "end_moves"]
    assert on_drawing(page, "tgt", queue[0]["action"]).count() == 0  # played on the board
    play.act(game.pk, mover, {"type": "end_moves"}, None)
    played = list(game.moves.filter(seat=seat).order_by("-number")[:2])
    assert [m.action for m in reversed(played)] == [item["action"] for item in queue]
    assert state.current != seat
