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
