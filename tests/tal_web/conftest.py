import pytest

from tests.factories import UserFactory, running_game


def new_game(users, options=None):
    return running_game("tal", users, options, title="Tal test")


@pytest.fixture
def users(db):
    return [
        UserFactory(username="anna", display_name="Anna"),
        UserFactory(username="ben", display_name="Ben"),
        UserFactory(username="cleo", display_name="Cleo"),
    ]


@pytest.fixture
def tal_game(users):
    """A running 2-player Tal der Könige game."""
    return new_game(users[:2])


def seat_user(game, number):
    return game.seats.get(number=number).user
