import random

import pytest

from tests.factories import running_game


def new_game(users, options=None):
    return running_game("tal", users, options, title="Tal test")


@pytest.fixture
def tal_game(users):
    """A running 2-player Tal der Könige game."""
    return new_game(users[:2])


def seat_user(game, number):
    return game.seats.get(number=number).user


def to_planning(game):
    """Plays ``game`` on (a bot for every seat) until its players write their plans."""
    return play_to(game, "plan", seed=2)


def play_to(game, phase: str, seed: int = 2, limit: int = 600):
    """Plays ``game`` on (a bot for every seat) until its phase is ``phase``; its state."""
    from games import play, replay
    from tal.engine import ENGINE

    from . import bot

    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        state = replay.current_state(game)
        if state.phase == phase:
            return state
        seat = sorted(ENGINE.active_seats(state))[0]
        action = bot.choose(state, seat, ENGINE.legal_actions(state, seat), rng)
        play.act(game.pk, seat_user(game, seat), action, None)
    pytest.fail(f"no {phase} phase within {limit} actions")
