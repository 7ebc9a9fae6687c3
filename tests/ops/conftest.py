import datetime

import pytest
from django.utils import timezone

from config.celery import app
from games import play
from ops import banner
from ops.heartbeat import beat
from ops.models import Heartbeat
from tests.factories import UserFactory


@pytest.fixture
def with_workers(settings):
    """Tasks go to a worker (not run in-process), so its heartbeat and beat's count."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = False
    banner.forget()
    yield
    app.conf.task_always_eager = before
    banner.forget()


@pytest.fixture
def alive(db, with_workers):
    """A worker and beat that wrote their heartbeats just now."""
    beat(Heartbeat.Role.WORKER)
    beat(Heartbeat.Role.BEAT)


def set_back(role: str, seconds: float) -> None:
    Heartbeat.objects.filter(role=role).update(
        seen_at=timezone.now() - datetime.timedelta(seconds=seconds)
    )


@pytest.fixture
def started(count_kind, db):
    """A running two-player game of Count to Ten; returns (game, seat-0 user, seat-1 user)."""
    alice = UserFactory(username="alice", display_name="Alice", email="alice@example.com")
    bob = UserFactory(username="bob", display_name="Bob", email="bob@example.com")
    game = play.create_game(
        alice, count_kind, title="Test", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bob)
    game.refresh_from_db()
    return game, game.seats.get(number=0).user, game.seats.get(number=1).user


def move(client, game, **kwargs):
    return client.post(
        f"/g/{game.pk}/act",
        {"action": {"type": "add", "n": 1}},
        content_type="application/json",
        **kwargs,
    )
