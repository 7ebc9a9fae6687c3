"""The signals the metrics count: moves (games), deliveries (notify), live streams
(live), sign-ups (allauth) and Celery tasks."""

from __future__ import annotations

import time

from allauth.account.signals import user_signed_up
from celery import signals as celery_signals
from django.dispatch import receiver

from games import signals as game_signals
from live import signals as live_signals
from notify import signals as notify_signals

from . import metrics


@receiver(game_signals.moved)
def count_moves(sender, game, moves, **kwargs):
    metrics.MOVES.labels(title=game.kind).inc(moves)


@receiver(notify_signals.delivered)
def count_delivery(sender, channel, outcome, retry, **kwargs):
    metrics.DELIVERIES.labels(channel=channel, outcome=outcome).inc()
    if retry:
        metrics.RETRIES.labels(channel=channel).inc()


@receiver(live_signals.stream_opened)
def stream_opened(sender, **kwargs):
    metrics.LIVE_STREAMS.inc()


@receiver(live_signals.stream_closed)
def stream_closed(sender, **kwargs):
    metrics.LIVE_STREAMS.dec()


@receiver(user_signed_up)
def count_signup(sender, **kwargs):
    metrics.SIGNUPS.inc()


# Celery tasks: started (task id -> monotonic time), then ended or failed.
_started: dict[str, float] = {}


def _task_name(sender, task) -> str:
    return getattr(task or sender, "name", None) or "unknown"


@celery_signals.task_prerun.connect(weak=False)
def task_started(sender=None, task_id=None, task=None, **kwargs):
    if task_id:
        _started[task_id] = time.monotonic()


@celery_signals.task_postrun.connect(weak=False)
def task_ended(sender=None, task_id=None, task=None, state=None, **kwargs):
    name = _task_name(sender, task)
    began = _started.pop(task_id, None)
    if began is not None:
        metrics.TASK_DURATION.labels(task=name).observe(time.monotonic() - began)
    metrics.TASKS.labels(task=name, outcome="failure" if state == "FAILURE" else "success").inc()
