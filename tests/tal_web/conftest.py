import pytest

from games import play, registry
from tests.factories import UserFactory


def new_game(users, options=None):
    game = play.create_game(
        users[0],
        registry.get("tal"),
        title="Tal test",
        players=len(users),
        options=options or {},
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
def tal_game(users):
    """A running 2-player Tal der Könige game."""
    return new_game(users[:2])


def seat_user(game, number):
    return game.seats.get(number=number).user
