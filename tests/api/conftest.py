import pytest

from api import tokens
from games import play
from tests.factories import UserFactory

SECRET_TITLE = "Zanzibar-Secret-Title"
SECRET_CHAT = "the-private-chat-line-Q7"


def bearer(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def token_of():
    """``token_of(user, "read play")``: the headers of a new token of ``user``'s."""

    def make(user, scopes="read play chat"):
        _token, secret = tokens.make(user, "test", scopes.split())
        return bearer(secret)

    return make


@pytest.fixture
def private_game(db, count_kind):
    alice = UserFactory(username="alice", display_name="Aliceinwonder")
    bob = UserFactory(username="bob", display_name="Bobthebuilder")
    game = play.create_game(
        alice,
        count_kind,
        title=SECRET_TITLE,
        players=2,
        options={},
        time_limit_days=3,
        private=True,
    )
    play.join(game.pk, bob)
    play.post_chat(game.pk, alice, SECRET_CHAT)
    game.refresh_from_db()
    return game
