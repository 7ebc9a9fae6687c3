"""Two programs play whole games through the API alone: the reference client
(clients/python) and its example bot with the greedy player of ``bots`` (deciding
from the seat's view, ``bots.choose_from_view``), against the site served for real
(uvicorn, config.asgi), each told of its turns by its token's event stream."""

import sys
import threading
from pathlib import Path

import pytest
from django.db import connection

import bots
from api import tokens
from games import replay
from games.models import Game
from games.pages import view_token
from tests.conftest import need_service
from tests.factories import UserFactory
from tests.live.conftest import _live_state, asgi_server  # noqa: F401  (fixtures)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
from example_bot import strategy  # noqa: E402
from pbw_client import Bot, Client  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


def play_to_the_end(server, kind: str) -> Game:
    users = [UserFactory(), UserFactory()]
    secrets = [tokens.make(user, "bot", ["read", "play"])[1] for user in users]
    clients = [Client(server.url, secret, timeout=20) for secret in secrets]
    created = clients[0].create(kind, players=2, title=f"API {kind}")
    assert [g["id"] for g in clients[1].lobby(kind)] == [created["id"]]
    clients[1].join(created["id"])

    failures = []

    def run(client):
        try:
            Bot(client, strategy("greedy")).run(
                until=lambda: client.game(created["id"])["status"] != "active"
            )
        except Exception as error:  # told to the test below
            failures.append(error)

    threads = [threading.Thread(target=run, args=(c,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    for client in clients:
        client.close()
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads), "a bot is still playing"
    return Game.objects.get(pk=created["id"])


def greedy_all_along(game: Game, rounds: int | None = None) -> int:
    """How many decisions of the game were the greedy player's, checked move by move on
    the real state: each move the bots chose (more than one action offered, no move the
    site made for them) is ``bots.choose`` "greedy" on that position, salted as the bot
    salts it (the game and its view's token). ``rounds``: Tal's first rounds only, whose
    views the API shows unchanged (later, the others' secret plan steps go uncounted in
    the move numbers the API shows, which seed the decision)."""
    engine = game.engine
    state = replay.initial_state(game)
    checked = 0
    for move in game.moves.filter(undone=False).order_by("number"):
        if rounds is not None and state.round > rounds:
            break
        offered = engine.legal_actions(state, move.seat)
        forced = engine.forced_action(state) if hasattr(engine, "forced_action") else None
        if len(offered) > 1 and forced is None:
            salt = f"{game.pk}:{view_token(engine.view(state, move.seat))}"
            assert move.action == bots.choose(engine, state, move.seat, "greedy", salt=salt)
            checked += 1
        state = engine.apply(state, move.seat, move.action)
    return checked


@pytest.mark.parametrize("kind", ["siam", "tal"])
def test_two_api_clients_play_a_whole_game(asgi_server, settings, kind):  # noqa: F811
    # CI's PostgreSQL and Redis: two programs and the server's threads write at once.
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    settings.API_RATE_LIMIT = "100000/m"
    game = play_to_the_end(asgi_server, kind)
    assert game.status == Game.Status.FINISHED
    assert game.result and game.move_count > 20
    assert set(game.moves.values_list("seat", flat=True)) == {0, 1}
    assert greedy_all_along(game, rounds=1 if kind == "tal" else None) > 10
