"""For real: two Celery worker processes on Redis deliver every hand-over's push and
webhook post, one worker is killed (SIGKILL) in the middle of a post, and the receivers
on 127.0.0.1 count one push and one post per hand-over and channel; the one post cut
off by the kill, which may have arrived, goes again once, with the same delivery id
(the README's promise). PostgreSQL and Redis; skipped without them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from notify import tasks
from notify.models import Notification
from tests.factories import UserFactory, running_game

from .conftest import add_hook, subscribe
from .test_real_services import (
    ROOT,
    broker,
    database_url,
    need_services,
    pings_queue,
    wait_for,
    whole_turn,
)

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def worker(queue: str, name: str, tmp: Path, vapid: tuple[str, str]):
    log = tmp / f"{name}.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.REDIS_URL,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CELERY_PINGS_QUEUE": pings_queue(queue),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "EMAIL_URL": f"filemail:///{tmp / 'mail'}",
        "VAPID_PUBLIC_KEY": vapid[0],
        "VAPID_PRIVATE_KEY": vapid[1],
        "VAPID_SUBJECT": "mailto:admin@example.com",
        "PING_ALLOWED_NETWORKS": "127.0.0.0/8",
        # Generous for a machine busy with other tests: a slow answer must not pass for a
        # failure, nor a slow worker's claim for a dead one's.
        "PING_TIMEOUT": "5",
        "PING_CLAIM_TIMEOUT": "8",
    }
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
            + ["-Q", f"{queue},{pings_queue(queue)}", "-n", f"{name}@%h"]
            + ["--without-gossip", "--without-mingle"]
            + ["--without-heartbeat", "--loglevel", "INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: "ready." in log.read_text(), 30, log)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


def connected_to(port: int, processes) -> subprocess.Popen | None:
    """The process holding an open TCP connection to 127.0.0.1:``port`` (from /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for line in list(rows)[1:]:
                fields = line.split()
                if int(fields[2].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                    inodes.add(fields[9])
    for process in processes:
        for fd in os.listdir(f"/proc/{process.pid}/fd"):
            try:
                link = os.readlink(f"/proc/{process.pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and link[8:-1] in inodes:
                return process
    return None


def test_two_workers_one_killed_mid_send_every_push_and_post_once(
    push_service, hooks, vapid, settings, tmp_path
):
    need_services()
    (tmp_path / "mail").mkdir()
    keys = (settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY)
    players = [
        UserFactory(username=n, display_name=n.title(), quiet_from=None, quiet_until=None)
        for n in ("anna", "bert")
    ]
    posts = hooks(secret="k" * 64)
    for user in players:
        client = Client()
        client.force_login(user)
        assert subscribe(client, push_service.subscription(user.username)).status_code == 201
        add_hook(user, f"{posts.url}/{user.username}", events=["turn"])
    game = running_game("siam", players)
    # The start's messages (sent in this process) are not what we count.
    Notification.objects.all().delete()
    push_service.received.clear()
    posts.received.clear()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    hand_overs = {"anna": 0, "bert": 0}
    with ExitStack() as stack:
        stack.enter_context(broker(settings.REDIS_URL, queue))
        first = stack.enter_context(worker(queue, "first", tmp_path, keys))
        second = stack.enter_context(worker(queue, "second", tmp_path, keys))
        # The first post to arrive is held before it is answered: its worker is killed then.
        release = threading.Event()
        posts.hold = release
        to = whole_turn(game)
        hand_overs[to.split("@")[0]] += 1
        assert posts.holding.wait(30), "no post arrived"
        victim = connected_to(posts.port, [first, second])
        assert victim is not None
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        release.set()
        survivor = second if victim is first else first
        # A new worker takes the dead one's place, and both race for what follows.
        stack.enter_context(worker(queue, "third", tmp_path, keys))
        time.sleep(8.5)  # the dead worker's claims expire (PING_CLAIM_TIMEOUT)
        # The turn is still on: the post cut off goes again, taken over, once.
        for _ in range(4):
            tasks.drain_pings.delay()  # what beat asks for every minute, to both workers
        wait_for(lambda: len(push_service.received) >= 1 and len(posts.received) >= 2, 30)
        time.sleep(2)
        for _ in range(3):
            to = whole_turn(game)
            hand_overs[to.split("@")[0]] += 1
            for _ in range(2):
                tasks.drain_pings.delay()  # both workers race the turn's own deliveries
            # The next move waits for this turn's ping and post: a turn played on before
            # they went would rightly skip them ("turn over"), which is not what is counted.
            expected = sum(hand_overs.values())
            wait_for(
                lambda n=expected: len(push_service.received) >= n and len(posts.received) >= n + 1,
                60,
            )
        time.sleep(2)  # a duplicate would arrive now
        assert survivor.poll() is None
    for name, count in hand_overs.items():
        assert len(push_service.payloads(name)) == count, (name, hand_overs)
    deliveries = [r.headers["x-pbw-delivery"] for r in posts.received]
    assert len(set(deliveries)) == sum(hand_overs.values())
    # The post cut off by the kill arrived twice, both with the same delivery id.
    repeated = [d for d in set(deliveries) if deliveries.count(d) > 1]
    assert len(repeated) == 1 and deliveries.count(repeated[0]) == 2
    assert not Notification.objects.filter(channel__in=["push", "webhook"], sent_at=None).exists()
