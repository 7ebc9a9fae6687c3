import pytest

from tests.factories import running_game


def _game(users, map_id="siam"):
    return running_game("siam", users, {"map": map_id}, title=f"Test {map_id}")


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
