import pytest

from games import planning, premoves, replay
from tests.factories import running_game


@pytest.fixture
def siam(users):
    """A running two-player King of Siam game: (game, the player to move, the one waiting)."""
    game = running_game("siam", users[:2], {"map": "siam"}, title="Premove test")
    to_move = game.seats.get(to_move=True).user
    waiting = game.seats.exclude(user=to_move).get().user
    return game, to_move, waiting


def seat_of(game, user) -> int:
    return game.seats.get(user=user).number


def plan_board(game, user):
    """The waiting player's planning board as the site rehearses it (premoves.rehearse)."""
    game.refresh_from_db()
    queue = premoves.queued_actions(premoves.queue_of(game, user))
    return premoves.rehearse(game.engine, replay.current_state(game), seat_of(game, user), queue)


def queue_first_choices(game, user, steps: int, first=None):
    """Queue ``first`` (an action) and then the first action offered, ``steps`` actions in
    all, as a player clicking on the planning board would; the actions queued."""
    queued = []
    for n in range(steps):
        board = plan_board(game, user)
        offered = [a["action"] for a in board.view["actions"]]
        action = first if n == 0 and first is not None else offered[0]
        assert action in offered, (action, offered)
        planning.queue(game.pk, user, action, None)
        queued.append(action)
    return queued
