"""A bank's increment is for a turn a player finished, and only for that: a turn taken
back or an action undone credits nobody, and a turn played at once from a queue (a
premove) or forced by the rules is credited like any other."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from agreements import flows
from agreements.models import Request
from games import play, registry, replay
from games.clock import Pace
from games.clock import seats as banks
from tests.factories import UserFactory, running_game
from tests.fake_engine import CountEngine
from tests.premoves.conftest import queue_first_choices

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
START = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)  # a Monday: no weekend near
PACE = Pace(start=10 * H, increment=1 * H, cap=20 * H)


def bank(game, user):
    """What ``user``'s bank holds now."""
    return banks.left(game, game.seats.get(user=user), timezone.now())


def whole_turn(game, user):
    """``user`` plays the first card with the first choice at every step of it."""
    number = game.seats.get(user=user).number
    state = replay.current_state(game)
    action = next(a for a in game.engine.legal_actions(state, number) if a["type"] == "play")
    while number in game.engine.active_seats(state):
        play.act(game.pk, user, action, None)
        game.refresh_from_db()
        state = replay.current_state(game)
        actions = game.engine.legal_actions(state, number)
        action = actions[0] if actions else None


def test_a_turn_taken_back_credits_nobody_an_increment(users):
    with time_machine.travel(START, tick=False) as clock:
        game = running_game("siam", users, {"map": "siam"}, pace=PACE)
        first = game.seats.get(to_move=True).number
        anna, ben, cleo = (game.seats.get(number=(first + k) % 3).user for k in range(3))
        clock.move_to(START + 1 * H)
        whole_turn(game, anna)
        assert bank(game, anna) == 10 * H  # 9 h left, and the turn's hour
        clock.move_to(START + 3 * H)  # Ben thinks for two hours; then all agree
        request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
        flows.answer(game.pk, ben, request.pk, True)
        flows.answer(game.pk, cleo, request.pk, True)
        game.refresh_from_db()
        assert game.seats.get(to_move=True).user == anna
        # Ben's two hours are spent; he finished no turn, so he gains no hour.
        assert bank(game, ben) == 8 * H
        assert game.seats.get(user=ben).bank_since is None
        assert game.deadline == START + 3 * H + 10 * H  # Anna's bank runs again


class UndoAcrossTurns(CountEngine):
    """Count to Ten whose last action, even the end of a turn, may be taken back (no
    title allows this; the frame must not count on it)."""

    slug = "count_undo"

    def can_undo(self, state, seat):
        return state.last is not None and state.last[0] == seat and state.winner is None


@pytest.fixture
def undo_kind():
    registry.register(UndoAcrossTurns())
    yield registry.get("count_undo")
    registry.unregister("count_undo")


def test_an_undone_action_credits_nobody_an_increment(undo_kind):
    alice, bob = UserFactory(), UserFactory()
    with time_machine.travel(START, tick=False) as clock:
        game = running_game("count_undo", [alice, bob], pace=PACE)
        mover = game.seats.get(to_move=True).user
        other = bob if mover == alice else alice
        play.act(game.pk, mover, {"type": "add", "n": 1}, None)
        play.act(game.pk, mover, {"type": "end"}, None)
        clock.move_to(START + 2 * H)
        play.undo(game.pk, mover, None)
        game.refresh_from_db()
        assert game.seats.get(to_move=True).user == mover
        assert bank(game, other) == 8 * H  # two hours spent, no turn finished


def test_a_turn_played_from_a_queue_is_credited_and_so_is_the_one_before(users):
    with time_machine.travel(START, tick=False) as clock:
        game = running_game("siam", users[:2], {"map": "siam"}, pace=PACE)
        anna = game.seats.get(to_move=True).user
        ben = game.seats.exclude(user=anna).get().user
        queue_first_choices(game, ben, 5, first={"type": "play", "card": "maharacha"})
        clock.move_to(START + 2 * H)
        play.act(game.pk, anna, {"type": "pass"}, None)  # Ben's whole card follows at once
        game.refresh_from_db()
        assert game.seats.get(to_move=True).user == anna
        assert bank(game, anna) == 9 * H  # two hours spent, and her turn's hour
        assert bank(game, ben) == 11 * H  # no time spent, and his turn's hour
        assert game.deadline == START + 2 * H + 9 * H  # her bank runs from now
