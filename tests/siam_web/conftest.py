import pytest

from games import play, registry
from tests.factories import UserFactory


def _game(users, map_id="siam"):
    game = play.create_game(
        users[0],
        registry.get("siam"),
        title=f"Test {map_id}",
        players=len(users),
        options={"map": map_id},
        time_limit_days=3,
        private=False,
    )
    for user in users[1:]:
        play.join(game.pk, user)
    game.refresh_from_db()
    return game


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
