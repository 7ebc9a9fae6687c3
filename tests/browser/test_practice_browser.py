"""In the browser: a newcomer starts a practice game against two computer players
from the lobby and plays it to the end; the computers are marked on the page."""

import pytest

from games.models import Game
from tests.factories import UserFactory

from .conftest import check_axe
from .test_siam_play import BOARD, click_first_legal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_practice_game_against_two_computers(login, live_server, artifacts):
    page = login(UserFactory(username="newcomer", display_name="Nina"))
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="New King of Siam game").click()
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=computer_2]", "random")
    page.select_option("select[name=computer_3]", "greedy")
    page.screenshot(path=str(artifacts / "practice-create-form.png"), full_page=True)
    check_axe(page, "create form with computer players")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_selector(BOARD)
    players = page.locator(".game-header .players")
    assert players.get_by_text("computer player").count() == 2
    page.screenshot(path=str(artifacts / "practice-game-page.png"), full_page=True)
    game = Game.objects.get()
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        # The computers answer inside the request: the page is always the human's turn.
        assert game.seats.get(user__username="newcomer").to_move
        click_first_legal(page)
    assert game.status == Game.Status.FINISHED
    page.reload()
    assert page.locator(".game-header").get_by_text("computer player").count() == 2
    page.screenshot(path=str(artifacts / "practice-game-finished.png"), full_page=True)


def test_the_late_player_takes_the_seat_back(login, live_server, artifacts):
    from datetime import timedelta

    import time_machine

    from games import play, registry

    hanna, otto = UserFactory(display_name="Hanna"), UserFactory(display_name="Otto")
    game = play.create_game(
        hanna,
        registry.get("tal"),
        title="Stand-in",
        players=2,
        options={},
        time_limit_days=3,
        private=True,
        timeout_policy=Game.TimeoutPolicy.STAND_IN,
    )
    play.join(game.pk, otto)
    game.refresh_from_db()
    late = game.seats.filter(to_move=True).first().user
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "stood_in"
    page = login(late)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    notice = page.locator(".stand-in-notice")
    assert "took over your seat" in notice.inner_text()
    page.screenshot(path=str(artifacts / "stand-in-notice.png"), full_page=False)
    check_axe(page, "game page with the stand-in notice")
    notice.get_by_role("button", name="Take my seat back").click()
    page.wait_for_load_state()
    assert page.locator(".stand-in-notice").count() == 0
    assert game.seats.get(user=late).stood_in_for is None


def test_a_suggested_move_is_marked_on_the_board(login, live_server, artifacts, monkeypatch):
    import bots
    from botplay import hints
    from botplay.accounts import bot_user
    from games import replay
    from games.actions import compact_json
    from tests.factories import running_game

    monkeypatch.setattr(hints, "BUDGET", bots.Budget(seconds=None, playouts=12))
    nina = UserFactory(username="nina", display_name="Nina")
    game = running_game("siam", [nina, bot_user("greedy")])
    from botplay.receivers import queue_turn

    game.refresh_from_db()
    for seat in game.seats.select_related("user"):
        if seat.user.is_bot and seat.to_move:
            queue_turn(game.pk, seat.number)  # the computer opens: its move comes first
    page = login(nina)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.get_by_role("button", name="Suggest a move").click()
    marked = page.locator("#board-area .hinted")
    marked.first.wait_for()
    assert marked.count() == 1
    state = replay.current_state(game)
    legal = {compact_json(a) for a in game.engine.legal_actions(state, game.seat_of(nina).number)}
    assert marked.get_attribute("data-act") in legal
    assert page.locator(".hint-text").inner_text().strip()
    assert page.locator(".hint-text .hint-reason").inner_text().strip()  # and why
    page.screenshot(path=str(artifacts / "practice-hint.png"), full_page=True)
