"""Heartbeats of the Celery worker and beat, written by a thread of each process.

Not a task that beat schedules and a worker runs: that would say "both are alive" or
"something is wrong" without saying which. The worker's thread starts on Celery's
``worker_ready`` signal, beat's on ``beat_init`` (``celery beat``) or
``beat_embedded_init`` (``celery worker -B``, as ``make run`` starts it): each writes at
once and then every ``HEARTBEAT_INTERVAL_SECONDS``.
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import threading

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from .models import Heartbeat

logger = logging.getLogger(__name__)

# Rows of processes gone for this long are removed (a restart is a new process).
FORGET_AFTER = datetime.timedelta(days=1)

_started: dict[str, threading.Event] = {}


def process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def beat(role: str, started_at: datetime.datetime | None = None) -> None:
    """Record that this process (of ``role``) is alive now."""
    now = timezone.now()
    Heartbeat.objects.update_or_create(
        role=role,
        host=process_name(),
        defaults={"seen_at": now},
        create_defaults={"seen_at": now, "started_at": started_at or now},
    )
    Heartbeat.objects.filter(role=role, seen_at__lt=now - FORGET_AFTER).delete()


def _run(role: str, stop: threading.Event) -> None:
    started_at = timezone.now()
    while True:
        try:
            close_old_connections()
            beat(role, started_at)
        except Exception as error:  # the database is down: try again next time
            logger.warning("could not write the %s heartbeat: %s", role, error)
            connection.close()
        if stop.wait(settings.HEARTBEAT_INTERVAL_SECONDS):
            return


def start(role: str) -> threading.Event:
    """Start this process's heartbeat thread for ``role`` (once); set the event to stop it."""
    key = f"{role}:{os.getpid()}"  # a forked child (embedded beat) starts its own
    if key not in _started:
        stop = threading.Event()
        _started[key] = stop
        threading.Thread(
            target=_run, args=(role, stop), name=f"{role}-heartbeat", daemon=True
        ).start()
        logger.info("%s heartbeat started (every %s s)", role, settings.HEARTBEAT_INTERVAL_SECONDS)
    return _started[key]


def on_worker_ready(**kwargs) -> None:
    start(Heartbeat.Role.WORKER)


def on_beat_init(**kwargs) -> None:
    start(Heartbeat.Role.BEAT)


def connect() -> None:
    from celery import signals

    signals.worker_ready.connect(on_worker_ready, weak=False)
    signals.beat_init.connect(on_beat_init, weak=False)
    signals.beat_embedded_init.connect(on_beat_init, weak=False)
