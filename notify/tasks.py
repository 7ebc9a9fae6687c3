"""Celery tasks: deliver one row, drain what is due, write reminders (beat runs the last two)."""

from celery import shared_task

from . import delivery, reminders


@shared_task(ignore_result=True)
def deliver(pk: int) -> str:
    return delivery.deliver(pk)


@shared_task(ignore_result=True)
def drain() -> dict:
    return delivery.drain()


@shared_task(ignore_result=True)
def remind() -> int:
    return reminders.queue_reminders()
