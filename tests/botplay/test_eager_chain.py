"""With tasks run eagerly (tests, ``make run``), a chain of computer turns runs
one task after another, never one inside the other, and nobody acts twice."""

from __future__ import annotations

import random
import sys

import pytest

import bots
from botplay.accounts import bot_user
from games import play, replay
from games.models import Game
from tests.factories import UserFactory, running_game

# Real commits: on_commit callbacks (and so the eager tasks) run as in a request.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def nesting(monkeypatch):
    """The deepest nesting of bot tasks seen while a bot chose its move."""
    deepest = [0]
    choose = bots.choose

    def counting(*args, **kwargs):
        frame, depth = sys._getframe(), 0
        while frame is not None:
            depth += frame.f_code.co_name == "play_turn"
            frame = frame.f_back
        deepest[0] = max(deepest[0], depth)
        return choose(*args, **kwargs)

    monkeypatch.setattr(bots, "choose", counting)
    return deepest


@pytest.mark.parametrize("title", ["siam", "tal"])
def test_one_person_and_three_computers(title, nesting):
    human = UserFactory(username="hanna")
    computers = [bot_user("random", n) for n in (1, 2, 3)]
    game = running_game(title, [human, *computers])
    mine = game.seat_of(human).number
    rng = random.Random(3)
    for _ in range(1500):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = replay.current_state(game)
        # The computers' turns in a row have all been played before the request returns.
        assert game.engine.active_seats(state) == {mine}
        play.act(game.pk, human, rng.choice(game.engine.legal_actions(state, mine)), None)
    assert game.status == Game.Status.FINISHED
    assert nesting[0] == 1
    # Nobody acted twice: the log replays to the stored result, move numbers without gaps.
    numbers = list(game.moves.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert game.engine.result(replay.fresh_replay(game)) == game.result
    for bot in computers:
        assert game.moves.filter(seat=game.seat_of(bot).number).count() > 3


def test_a_game_of_computers_only_plays_to_the_end_without_deep_recursion(nesting):
    # Hundreds of computer turns in a row: nested, they would overflow the stack.
    game = running_game("siam", [bot_user("random", 1), bot_user("random", 2)])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.move_count > 30 and nesting[0] == 1
