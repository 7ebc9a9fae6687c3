"""For real: a Celery worker subprocess on Redis delivers the e-mail of a move, and
a broker that dies mid-game loses nothing. PostgreSQL (so the worker can see
the test database) and Redis; skipped without them, failing under REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction

from config.celery import app
from games import play, replay
from notify import outbox, tasks
from notify.models import Notification
from tests.conftest import need_service
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(settings.BASE_DIR)


def need_services():
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    need_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")


def database_url() -> str:
    db = connection.settings_dict  # already the test database
    return (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def pings_queue(queue: str) -> str:
    """The test's own queue of pushes and webhook posts, beside ``queue`` (its mail's)."""
    return f"{queue}-pings"


def route_pings(queue: str) -> None:
    app.conf.task_routes = {
        task: {"queue": queue} for task in ("notify.tasks.deliver_ping", "notify.tasks.drain_pings")
    }
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)  # built again from the routes on next use


@contextmanager
def broker(url: str, queue: str):
    """Send this process's tasks to ``url`` on queues of this test's own: mail on
    ``queue``, pushes and posts on ``pings_queue(queue)``."""
    conf = app.conf
    before = (conf.broker_url, conf.task_default_queue, conf.task_always_eager)
    routes = conf.task_routes
    conf.broker_url, conf.task_default_queue, conf.task_always_eager = url, queue, False
    route_pings(pings_queue(queue))
    app._after_fork()  # forget pooled connections to the old broker
    try:
        yield
    finally:
        conf.broker_url, conf.task_default_queue, conf.task_always_eager = before
        conf.task_routes = routes
        app.amqp.flush_routes()
        app.amqp.__dict__.pop("router", None)
        app._after_fork()


@contextmanager
def worker(
    url: str,
    queue: str,
    mail_dir: Path,
    log: Path,
    ready_seconds: float = 20,
    consume: list[str] | None = None,
):
    """A worker of both the test's queues (or of those in ``consume``)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CELERY_PINGS_QUEUE": pings_queue(queue),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "EMAIL_URL": f"filemail:///{mail_dir}",
        "PING_ALLOWED_NETWORKS": "127.0.0.0/8",  # the tests' receivers
    }
    queues = ",".join(consume or [queue, pings_queue(queue)])
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
            + ["-Q", queues, "--without-gossip", "--without-mingle", "--without-heartbeat"]
            # One task at a time: two workers race for rows queued together, as in production.
            + ["--prefetch-multiplier", "1"]
            + ["--loglevel", "INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: "ready." in log.read_text(), ready_seconds, log)
        yield process
    finally:
        process.terminate()
        process.wait(10)


def wait_for(condition, seconds: float, log: Path | None = None) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail("timed out" + (f"; worker said:\n{log.read_text()}" if log else ""))


def mails(mail_dir: Path) -> list[str]:
    """Every message the worker's file backend wrote. One file holds a connection's
    messages, each ended by a line of 79 dashes; two connections opened in the same
    second by objects at the same address append to the same file."""
    end = "\n" + "-" * 79 + "\n"
    return [
        message
        for path in sorted(mail_dir.glob("*.log"))
        for message in path.read_text().split(end)
        if message.strip()
    ]


def your_turn_mails(mail_dir: Path) -> list[str]:
    return [m for m in mails(mail_dir) if "Subject: Your turn" in m or "WW91ciB0dXJu" in m]


@pytest.fixture
def siam_game():
    """A King of Siam game (the worker knows only the real engines), mail at any hour."""
    users = [
        UserFactory(
            username=name, display_name=name.title(), quiet_from="00:00", quiet_until="00:00"
        )
        for name in ("anna", "bert")
    ]
    game = running_game("siam", users)
    Notification.objects.all().delete()  # the start's mails are not what we count
    return game


def whole_turn(game) -> str:
    """Play legal actions until the turn passes; returns the address of who is to move next."""
    rng = random.Random(game.move_count)
    while True:
        game.refresh_from_db()
        seat = game.seats.select_related("user").get(to_move=True)
        state = replay.current_state(game)
        action = rng.choice(game.engine.legal_actions(state, seat.number))
        play.act(game.pk, seat.user, action, None)
        after = game.seats.select_related("user").filter(to_move=True).first()
        if after is not None and after.number != seat.number:
            return after.user.email


def test_a_move_leads_to_exactly_one_mail_through_a_real_worker(siam_game, tmp_path):
    need_services()
    game = siam_game
    queue = f"test-{uuid.uuid4().hex[:8]}"
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    with (
        broker(settings.REDIS_URL, queue),
        worker(settings.REDIS_URL, queue, mail_dir, tmp_path / "worker.log"),
    ):
        to = whole_turn(game)
        wait_for(lambda: len(mails(mail_dir)) >= 1, 15, tmp_path / "worker.log")
        time.sleep(1.5)  # a duplicate would arrive now
    [message] = mails(mail_dir)
    assert f"To: {to}" in message
    assert f"/g/{game.pk}/" in message
    assert Notification.objects.get(kind="turn").sent_at is not None


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own, on a free port, that the test may stop."""
    binary = shutil.which("redis-server")
    need_service(binary is not None, "redis-server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tmp_path / "redis"
    data.mkdir()

    def start():
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data)]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        wait_for(lambda: _answers(port), 10)
        return process

    server = {"process": start()}

    def stop():
        server["process"].terminate()
        server["process"].wait(10)

    def restart():
        server["process"] = start()

    yield f"redis://127.0.0.1:{port}/0", stop, restart
    if server["process"].poll() is None:
        stop()


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def test_broker_stopped_mid_game_moves_succeed_and_every_mail_goes_out_once(
    siam_game, own_redis, tmp_path
):
    need_services()
    url, stop, restart = own_redis
    game = siam_game
    queue = f"test-{uuid.uuid4().hex[:8]}"
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    log = tmp_path / "worker.log"
    with broker(url, queue):
        with worker(url, queue, mail_dir, log):
            expected = [whole_turn(game)]  # delivered normally
            wait_for(lambda: len(mails(mail_dir)) == 1, 15, log)
        stop()
        started = time.monotonic()
        # The broker is down: the move still succeeds, quickly, and so does a
        # sign-up's mail. (A second hand-over would make the first turn mail
        # stale: it is skipped, by design, since that player has moved.)
        expected.append(whole_turn(game))
        with transaction.atomic():
            outbox.queue(kind="raw", address="new@example.com", dedupe_key="raw:1", subject="Hi")
        expected.append("new@example.com")
        assert time.monotonic() - started < 10
        assert Notification.objects.filter(sent_at=None).count() == 2
        restart()
        with worker(url, queue, mail_dir, log):
            tasks.drain.delay()  # what beat asks for every minute
            wait_for(lambda: len(mails(mail_dir)) >= 3, 15, log)
            time.sleep(1.5)
    sent = mails(mail_dir)
    assert len(sent) == 3
    assert Notification.objects.filter(sent_at=None).count() == 0
    recipients = sorted(line for m in sent for line in m.splitlines() if line.startswith("To: "))
    assert recipients == sorted(f"To: {address}" for address in expected)
