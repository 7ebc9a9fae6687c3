import pytest

from tests.factories import UserFactory, running_game


def _game(users, map_id="siam"):
    return running_game("siam", users, {"map": map_id}, title=f"Test {map_id}")


@pytest.fixture
def users(db):
    return [
        UserFactory(username="anna", display_name="Anna"),
        UserFactory(username="ben", display_name="Ben"),
        UserFactory(username="cleo", display_name="Cleo"),
    ]


@pytest.fixture
def siam_game(users):
    """A running 2-player King of Siam game."""
    return _game(users[:2], "siam")


@pytest.fixture
def saba_game(users):
    """A running 3-player King of Saba game."""
    return _game(users, "saba")


def seat_user(game, number):
    return game.seats.get(number=number).user
