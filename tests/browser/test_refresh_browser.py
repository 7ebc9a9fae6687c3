"""The open game page in Chromium, refreshed by its poll: new chat lines arrive
on their own (the board stays as it is), a move brings the new board and keeps
the chat and a half-written message."""

import pytest

from games import play, replay
from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_chat_and_moves_arrive_without_a_reload(login, live_server):
    users = [UserFactory(display_name="Ada"), UserFactory(display_name="Ben")]
    game = running_game("siam", users, {"map": "siam"})
    state = replay.current_state(game)
    seat = sorted(game.engine.active_seats(state))[0]
    mover = game.seats.get(number=seat).user
    waiting = next(u for u in users if u != mover)
    page = login(waiting)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    page.fill("#chat-text", "half a thought")
    play.post_chat(game.pk, mover, "Hello from the other side.")
    page.get_by_text("Hello from the other side.").wait_for(timeout=12_000)
    # only the chat came: the board element is the same one, the draft is still there
    assert page.evaluate("document.getElementById('board-area').dataset.stale") == "1"
    assert page.input_value("#chat-text") == "half a thought"
    page.evaluate("document.getElementById('chat-lines').dataset.kept = '1'")
    play.act(game.pk, mover, game.engine.legal_actions(state, seat)[0], None)
    page.wait_for_selector("#board-area:not([data-stale])", timeout=12_000)
    # the new board came without the chat lines: the page kept its own element
    assert page.evaluate("document.getElementById('chat-lines').dataset.kept") == "1"
    assert page.get_by_text("Hello from the other side.").count() == 1
    assert page.input_value("#chat-text") == "half a thought"
    assert page.locator("#game-poll").count() == 1


def test_a_step_the_viewer_cannot_see_leaves_their_board_in_place(login, live_server):
    from tal.engine import ENGINE
    from tests.tal_web.conftest import seat_user, to_planning

    game = running_game("tal", [UserFactory(display_name="Ada"), UserFactory(display_name="Ben")])
    state = to_planning(game)
    planner, watcher = sorted(ENGINE.active_seats(state))[:2]
    page = login(seat_user(game, watcher))
    page.goto(f"{live_server.url}/g/{game.pk}/")
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    page.evaluate("document.getElementById('part-board').dataset.kept = '1'")
    user = seat_user(game, planner)
    while None in state.plans[planner]:  # each overseer planned: the plan is complete
        unplanned = state.plans[planner].index(None)
        step = next(
            a
            for a in ENGINE.legal_actions(state, planner)
            if a["type"] == "plan" and a["index"] == unplanned
        )
        play.act(game.pk, user, step, None)
        state = replay.current_state(game)
    # A secret plan step is no news: nothing reaches the watcher's page (a poll and
    # the live stream would have come within this time), not even that a step was made.
    page.wait_for_timeout(5_000)
    assert page.evaluate("document.getElementById('board-area').dataset.stale") == "1"
    assert page.evaluate("document.getElementById('part-board').dataset.kept") == "1"
    # Handing the plan in is public: the page shows it (the stream still works).
    play.act(game.pk, user, {"type": "submit_plan"}, None)
    page.wait_for_selector("#board-area:not([data-stale])", timeout=12_000)
    assert page.locator("#part-board .tal-valley").count() == 1
    assert page.locator(".tal-valley").first.is_visible()
    assert page.locator("#game-poll").count() == 1


def test_a_refused_chat_line_stays_in_the_box_with_the_reason_beside_it(login, live_server):
    users = [UserFactory(display_name="Ada"), UserFactory(display_name="Ben")]
    game = running_game("siam", users, {"map": "siam"})
    page = login(users[0])
    page.goto(f"{live_server.url}/g/{game.pk}/")
    page.fill("#chat-text", "   ")  # only spaces: refused by the server, not by the browser
    page.click("#chat-form button")
    error = page.locator(".chat #chat-error")
    error.wait_for(timeout=12_000)
    assert error.is_visible()
    # the refusal is said next to the chat box, not above the board
    assert page.locator(".board-area > .error").count() == 0
    assert page.input_value("#chat-text") == "   "
    page.fill("#chat-text", "Now a real line.")
    page.click("#chat-form button")
    page.get_by_text("Now a real line.").wait_for(timeout=12_000)
    assert page.input_value("#chat-text") == ""  # taken: the box is emptied
    assert page.locator("#chat-error").count() == 0
