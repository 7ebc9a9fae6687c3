"""Celery tasks: deliver one row, drain what is due, write reminders (beat runs the last two)."""

from celery import shared_task

from . import delivery, reminders, signin


@shared_task(ignore_result=True)
def deliver(pk: int) -> str:
    return delivery.deliver(pk)


@shared_task(ignore_result=True)
def drain() -> dict:
    return delivery.drain()


@shared_task(ignore_result=True)
def remind() -> int:
    signin.prune()  # nonces of sign-in links that have expired anyway
    return reminders.queue_reminders()
