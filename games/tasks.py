"""Celery tasks of the games app (the schedule is ``CELERY_BEAT_SCHEDULE`` in settings)."""

from celery import shared_task

from . import deadlines
from .models import Receipt


@shared_task
def sweep_deadlines() -> dict[str, int]:
    """Stop and restart vacation clocks, then apply the timeout policy of overdue games."""
    return deadlines.sweep()


@shared_task
def prune_receipts() -> int:
    """Forget request ids older than a day: a retry after a cut connection comes
    within seconds, and the table would otherwise grow by one row per click."""
    return Receipt.prune()
