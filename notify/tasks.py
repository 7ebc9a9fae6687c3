"""Celery tasks: deliver one row, drain what is due, write reminders (beat runs the
drains and the reminders). E-mail goes on the default queue; pushes and webhook posts
on their own (settings.CELERY_TASK_ROUTES), so a slow receiver never holds up a mail."""

from celery import shared_task

from . import delivery, reminders, signin


@shared_task(ignore_result=True)
def deliver(pk: int) -> str:
    return delivery.deliver(pk)


@shared_task(ignore_result=True)
def deliver_ping(pk: int) -> str:
    """A push or a webhook post (the same delivery, on the pings queue)."""
    return delivery.deliver(pk)


@shared_task(ignore_result=True)
def drain() -> dict:
    return delivery.drain(pings=False)


@shared_task(ignore_result=True)
def drain_pings() -> dict:
    return delivery.drain(pings=True)


@shared_task(ignore_result=True)
def remind() -> int:
    signin.prune()  # nonces of sign-in links that have expired anyway
    return reminders.queue_reminders()
