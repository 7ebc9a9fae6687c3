"""Celery tasks of the games app (the schedule is ``CELERY_BEAT_SCHEDULE`` in settings)."""

from celery import shared_task

from . import deadlines


@shared_task
def sweep_deadlines() -> dict[str, int]:
    """Stop and restart vacation clocks, then apply the timeout policy of overdue games."""
    return deadlines.sweep()
