"""For real: a Celery worker with embedded beat (``celery worker -B``, as ``make run``
starts it) writes both heartbeats from its own processes; /readyz is ready while it
runs and answers 503 naming the worker and beat once it is killed. PostgreSQL (the
worker must see the test database) and Redis; skipped without them."""

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from ops.models import Heartbeat
from tests.notify.test_real_services import ROOT, broker, database_url, need_services, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

STALE = 4


def test_a_real_worker_and_beat_beat_and_a_killed_worker_is_named(client, settings, tmp_path):
    need_services()
    settings.HEARTBEAT_STALE_SECONDS = STALE
    queue = f"test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.REDIS_URL,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "EMAIL_URL": f"filemail:///{tmp_path / 'mail'}",
        "HEARTBEAT_INTERVAL_SECONDS": "1",
    }
    with broker(settings.REDIS_URL, queue), log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-B", "--pool", "solo"]
            + ["-s", str(tmp_path / "beat-schedule"), "-Q", queue]
            + ["--without-gossip", "--without-mingle", "--without-heartbeat"]
            + ["--loglevel", "INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the embedded beat goes with it
        )
        try:
            wait_for(lambda: Heartbeat.objects.filter(role="worker").exists(), 40, log)
            wait_for(lambda: Heartbeat.objects.filter(role="beat").exists(), 40, log)
            hosts = dict(Heartbeat.objects.values_list("role", "host"))
            # Each from its own process: the worker's pid, and beat's child of it.
            assert hosts["worker"].endswith(f":{process.pid}")
            assert hosts["beat"] != hosts["worker"]
            time.sleep(2)
            response = client.get("/readyz")
            answer = response.json()
            assert response.status_code == 200, answer
            assert answer["checks"]["worker"]["age_seconds"] < STALE
            assert answer["checks"]["beat"]["age_seconds"] < STALE
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        # Each goes stale STALE seconds after its own last heartbeat.
        wait_for(lambda: {"worker", "beat"} <= set(client.get("/readyz").json()["failing"]), 20)
        response = client.get("/readyz")
        assert response.status_code == 503
        # (the age is shown to a tenth: 4.04 s is shown as 4.0, and is stale)
        assert response.json()["checks"]["worker"]["age_seconds"] >= STALE
