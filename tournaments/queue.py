"""Queueing tournament and ladder tasks after the change that asks for them.

Tasks are named, not imported (``tournaments.tasks`` imports the modules that queue
them). ``TournamentsConfig.ready`` imports the tasks, so the names are known wherever
this runs, eager ones included.
"""

from __future__ import annotations

import logging
import threading

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)

ADVANCE = "tournaments.tasks.advance"
PAIR_LADDER = "tournaments.tasks.pair_ladder"

_eager = threading.local()


def after_commit(task: str, *args) -> None:
    transaction.on_commit(lambda: publish(task, *args))


def publish(task: str, *args) -> None:
    """Queue ``task``; never fails the change that asked for it (beat sweeps anyway).
    Eager (tests, ``make run``), a task queued while another runs in this thread waits
    for it instead of nesting inside it: a tournament of computers plays out round
    after round without its calls growing deeper."""
    if not current_app.conf.task_always_eager:
        _send(task, args)
        return
    pending = getattr(_eager, "pending", None)
    if pending is not None:
        pending.append((task, args))
        return
    _eager.pending = [(task, args)]
    try:
        while _eager.pending:
            _send(*_eager.pending.pop(0))
    finally:
        _eager.pending = None


def _send(task: str, args) -> None:
    try:
        current_app.signature(task, args=args).delay()
    except Exception:
        logger.warning("could not queue %s%s", task, args, exc_info=True)
