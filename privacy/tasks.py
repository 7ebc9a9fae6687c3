"""Celery task (beat, hourly: ``CELERY_BEAT_SCHEDULE``)."""

from celery import shared_task

from . import retention


@shared_task(ignore_result=True)
def apply_retention() -> dict:
    return retention.apply()
