"""For real, on PostgreSQL and Redis with Celery worker processes: each first player
of a started game gets one mail (the start, which carries the turn) however many
workers race for the rows; and pushes and posts wait on their own queue, so a worker
of the mail queue alone delivers mail while they wait. Skipped without the services."""

from __future__ import annotations

import time
import uuid

import pytest
from django.conf import settings

from notify.models import Notification
from tests.factories import UserFactory, running_game

from .conftest import add_hook
from .test_real_services import (
    broker,
    mails,
    need_services,
    pings_queue,
    siam_game,  # noqa: F401 (a fixture)
    wait_for,
    whole_turn,
    worker,
)

pytestmark = pytest.mark.django_db(transaction=True)
GAMES = 10


def players(n: int) -> list:
    return [
        UserFactory(
            username=f"p{n}{x}", display_name=f"P{n}{x}", quiet_from="00:00", quiet_until="00:00"
        )
        for x in ("a", "b")
    ]


def test_two_workers_send_each_first_player_one_mail_at_the_start(tmp_path):
    need_services()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    with (
        broker(settings.REDIS_URL, queue),
        worker(settings.REDIS_URL, queue, mail_dir, tmp_path / "first.log"),
        worker(settings.REDIS_URL, queue, mail_dir, tmp_path / "second.log"),
    ):
        games = [running_game("siam", players(n)) for n in range(GAMES)]
        wait_for(lambda: len(mails(mail_dir)) >= 2 * GAMES, 60, tmp_path / "first.log")
        time.sleep(2)  # a second mail would arrive now
    sent = mails(mail_dir)
    for game in games:
        for seat in game.seats.select_related("user"):
            to_them = [m for m in sent if f"To: {seat.user.email}" in m]
            assert len(to_them) == 1, (seat.user.email, seat.to_move)
    turns = Notification.objects.filter(kind="turn", channel="email")
    assert turns.count() == GAMES and not turns.filter(sent_at=None).exists()


def test_a_worker_of_the_mail_queue_delivers_mail_while_pings_wait_on_theirs(
    siam_game,  # noqa: F811
    hooks,
    local_targets,
    tmp_path,
):
    need_services()
    game = siam_game
    receiver = hooks()
    for seat in game.seats.select_related("user"):
        add_hook(seat.user, receiver.url, events=["turn"])
    queue = f"test-{uuid.uuid4().hex[:8]}"
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    log = tmp_path / "mail-worker.log"
    with broker(settings.REDIS_URL, queue):
        with worker(settings.REDIS_URL, queue, mail_dir, log, consume=[queue]):
            whole_turn(game)
            wait_for(lambda: len(mails(mail_dir)) == 1, 20, log)
            time.sleep(1.5)
            assert receiver.received == []  # its task waits on the pings queue
            post = Notification.objects.get(channel="webhook", kind="turn")
            assert post.sent_at is None and post.claimed_at is None
        pings_log = tmp_path / "pings-worker.log"
        consume = [pings_queue(queue)]
        with worker(settings.REDIS_URL, queue, mail_dir, pings_log, consume=consume):
            receiver.wait_for(1, 20)
            time.sleep(1)
    assert len(receiver.received) == 1
    assert len(mails(mail_dir)) == 1
    post.refresh_from_db()
    assert post.sent_at is not None
