import pytest

from games import play
from tests.factories import UserFactory


@pytest.fixture
def alice(db):
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def started(count_kind, alice, bob):
    """A running two-player game of Count to Ten; returns (game, seat-0 user, seat-1 user)."""
    game = play.create_game(
        alice, count_kind, title="Test", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bob)
    game.refresh_from_db()
    first = game.seats.get(number=0).user
    second = game.seats.get(number=1).user
    return game, first, second


def post_action(client, game, action, version=None):
    body = {"action": action}
    if version is not None:
        body["version"] = version
    return client.post(f"/g/{game.pk}/act", body, content_type="application/json")
