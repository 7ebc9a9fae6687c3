"""Writing and claiming outbox rows (``notify.delivery`` sends them).

A row is written in the transaction that causes it (a move, a sign-up), so it
exists exactly when the change does. After commit a Celery task delivers it;
if the broker is down the periodic drain finds it. A row is claimed with a
conditional UPDATE before sending, so two workers never both send it.
"""

from __future__ import annotations

import datetime
import logging

from celery import current_app
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import schedule
from .models import Notification

logger = logging.getLogger(__name__)

# The task that delivers one row (notify.tasks), called by its name: it runs
# notify.delivery, which reads this module, so importing it here would close a circle.
# NotifyConfig.ready imports notify.tasks, so the name is known wherever rows are queued
# (an eager task, as in the tests and ``make run``, runs in this process).
DELIVER_TASK = "notify.tasks.deliver"

# A claim older than this belongs to a worker that died while sending.
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)
MAX_BACKOFF = datetime.timedelta(hours=6)


class Skip(Exception):
    """The e-mail is no longer wanted (preference changed, player already moved, ...)."""


class Postpone(Exception):
    """Not now (the player has the game open): ask again at ``until``."""

    def __init__(self, until: datetime.datetime) -> None:
        super().__init__(until)
        self.until = until


def queue(
    *,
    kind: str,
    address: str,
    dedupe_key: str,
    user=None,
    game=None,
    seat: int | None = None,
    move_count: int | None = None,
    turn_since: datetime.datetime | None = None,
    due_at: datetime.datetime | None = None,
    in_digest: bool = False,
    subject: str = "",
    text: str = "",
    html: str = "",
) -> Notification:
    """Write a row unless one with ``dedupe_key`` exists; deliver it after commit if due."""
    now = timezone.now()
    row, created = Notification.objects.get_or_create(
        dedupe_key=dedupe_key,
        defaults={
            "kind": kind,
            "address": address,
            "user": user,
            "game": game,
            "seat": seat,
            "move_count": move_count,
            "turn_since": turn_since,
            "due_at": due_at or now,
            "in_digest": in_digest,
            "subject": subject[:250],
            "text": text,
            "html": html,
        },
    )
    if created and not in_digest and row.due_at <= now:
        transaction.on_commit(lambda: enqueue(row.pk))
    return row


def enqueue(pk: int) -> None:
    """Hand a row to a worker; never fails the request that caused it."""
    try:
        current_app.signature(DELIVER_TASK, args=(pk,)).delay()
    except Exception:
        # Broker down (or, when eager, anything else): the drain sends it later.
        logger.warning("could not queue delivery of notification %s", pk, exc_info=True)


def claimable(now: datetime.datetime):
    return (
        Notification.objects.filter(sent_at=None, skipped="", due_at__lte=now)
        .filter(Q(next_attempt_at=None) | Q(next_attempt_at__lte=now))
        .filter(Q(claimed_at=None) | Q(claimed_at__lt=now - CLAIM_TIMEOUT))
    )


def claim(pk: int, now: datetime.datetime) -> bool:
    return claimable(now).filter(pk=pk).update(claimed_at=now) == 1


def backoff(attempts: int) -> datetime.timedelta:
    return min(datetime.timedelta(minutes=2**attempts), MAX_BACKOFF)


def reschedule(user, now: datetime.datetime | None = None) -> int:
    """Move ``user``'s waiting mail to the times their settings give now (quiet
    hours, digest hour or time zone changed); returns how many mails go sooner.

    Mail held by quiet hours goes when the new ones end, or at once without
    them. It never goes later than it was due: a last warning is timed to
    arrive while it is of use. Turns kept for the daily digest wait for the
    new digest hour, or, with the digest turned off, go as turn mails of their own.
    """
    now = now or timezone.now()
    waiting = Notification.objects.filter(user=user, sent_at=None, skipped="", claimed_at=None)
    digest = Notification.Kind.DIGEST
    soon = schedule.send_time(user, now)
    mail = waiting.exclude(kind__in=[digest, Notification.Kind.RAW])
    if user.digest_hour is None:
        waiting.filter(kind=digest).update(skipped="digest turned off")
        freed = list(
            mail.filter(Q(in_digest=True) | Q(due_at__gt=soon)).values_list("pk", flat=True)
        )
    else:
        at = schedule.next_digest(user, now)
        waiting.filter(Q(kind=digest) | Q(in_digest=True)).update(due_at=at)
        freed = list(mail.filter(in_digest=False, due_at__gt=soon).values_list("pk", flat=True))
    mail.filter(pk__in=freed).update(in_digest=False, due_at=soon)
    if soon <= now:
        for pk in freed:
            transaction.on_commit(lambda pk=pk: enqueue(pk))
    return len(freed)
