"""Sending outbox rows: claim one, compose its message at send time (an e-mail, a push
or a webhook post), send it, and record what happened (sent, skipped, postponed,
failed and retried with backoff).

What is promised (README "What arrives, and how often"): a message goes at most once,
except when a worker dies between the receiver's acceptance and the "sent" mark. Its
row then still holds the "sending" mark, written and committed before the message left;
once the claim has gone stale (nobody holds it), the row is sent again with the same
Message-ID or delivery id, so the receiver can tell the copy for the same message.
"""

from __future__ import annotations

import datetime
import logging

from django.utils import timezone

from . import push, signals
from .compose import compose
from .models import Notification
from .outbox import (
    COUNTDOWN_LIMIT,
    Postpone,
    RetryLater,
    Skip,
    backoff,
    claim,
    claimable,
    enqueue,
)

logger = logging.getLogger(__name__)

Channel = Notification.Channel


def deliver(pk: int) -> str:
    """Send one row if it is due and nobody else is sending it; returns what happened."""
    now = timezone.now()
    if not claim(pk, now):
        return "not claimed"
    row = Notification.objects.select_related("user", "game", "device", "webhook").get(pk=pk)
    outcome = _deliver(pk, row, now)
    # For the metrics (ops): where the outcome is known, in the process that sent it.
    signals.delivered.send_robust(
        sender=Notification, channel=row.channel, outcome=outcome, retry=row.attempts > 0
    )
    return outcome


def _deliver(pk: int, row: Notification, now: datetime.datetime) -> str:
    if row.sending_at is not None:
        # Its worker died while sending: the receiver may have it. It goes again (if it
        # is still wanted) with the same Message-ID or delivery id.
        logger.warning("notification %s was cut off while sending: sending it again", pk)
    bundled: list[int] = []
    try:
        message, bundled = compose(row, now)
    except Skip as reason:
        Notification.objects.filter(pk=pk).update(
            skipped=str(reason)[:100] or "skipped", sending_at=None
        )
        release_covered(pk)
        return "skipped"
    except Postpone as later:
        Notification.objects.filter(pk=pk).update(due_at=later.until, claimed_at=None)
        return "postponed"
    except Exception as error:
        logger.exception("could not compose notification %s", pk)
        _failed(row, now, error)
        return "failed"
    try:
        if row.channel == Channel.EMAIL:
            message.extra_headers["Message-ID"] = row.message_id
            # Committed before the SMTP conversation: from here the mail may arrive.
            if not mark_sending(pk, now):
                return "not claimed"  # taken over by another worker after a stall
            message.send()
        else:
            message.send(on_connected=lambda: mark_sending(pk, now))
    except (Skip, push.Gone, push.Rejected) as reason:
        # Nothing to retry: the device is gone, or its push service refuses this for good.
        Notification.objects.filter(pk=pk).update(
            skipped=str(reason)[:100] or "skipped", sending_at=None
        )
        Notification.objects.filter(pk__in=bundled).update(claimed_at=None)
        release_covered(pk)
        return "skipped"
    except Exception as error:
        logger.warning("could not send notification %s: %s", pk, error)
        until = error.until if isinstance(error, RetryLater) else None
        _failed(row, now, error, until)
        Notification.objects.filter(pk__in=bundled).update(claimed_at=None)
        return "failed"
    # Only rows this worker still holds: one taken over after a stall is the other's.
    Notification.objects.filter(pk__in=[pk, *bundled], claimed_at=now).update(
        sent_at=now, last_error=""
    )
    if row.kind == Notification.Kind.RAW:
        # Account mail carries sign-up and password-reset keys: once delivered,
        # the outbox keeps no copy of them.
        Notification.objects.filter(pk=pk).update(text="", html="")
    return "sent"


def mark_sending(pk: int, claimed_at: datetime.datetime) -> bool:
    """The "sending" mark, if this worker still holds the row."""
    held = Notification.objects.filter(pk=pk, claimed_at=claimed_at)
    return held.update(sending_at=timezone.now()) == 1


def release_covered(pk: int) -> None:
    """The turns a skipped message would have carried go on their own."""
    covered = Notification.objects.filter(covered_by=pk, sent_at=None, skipped="")
    for pk_, channel in list(covered.values_list("pk", "channel")):
        Notification.objects.filter(pk=pk_).update(covered_by=None)
        enqueue(pk_, channel)


def _failed(
    row: Notification,
    now: datetime.datetime,
    error: Exception,
    until: datetime.datetime | None = None,
) -> None:
    """Try again after a backoff, or when a busy receiver said (``until``, its
    Retry-After). A post that timed out may still be on its way: the backoff (two
    minutes at least) keeps the next one well behind it, with the same delivery id."""
    attempts = row.attempts + 1
    next_attempt = until or now + backoff(attempts)
    Notification.objects.filter(pk=row.pk).update(
        claimed_at=None,
        sending_at=None,
        attempts=attempts,
        next_attempt_at=next_attempt,
        last_error=f"{type(error).__name__}: {error}"[:2000],
    )
    if until is not None and until - now <= COUNTDOWN_LIMIT:
        # Back on time, not at the next drain after it.
        enqueue(row.pk, row.channel, countdown=(until - now).total_seconds())


def due(
    now: datetime.datetime | None = None, limit: int = 500, pings: bool | None = None
) -> list[int]:
    """Rows due now: all of them, or only pushes and posts (``pings``) or only e-mail."""
    now = now or timezone.now()
    rows = claimable(now).filter(in_digest=False)
    if pings is True:
        rows = rows.exclude(channel=Channel.EMAIL)
    elif pings is False:
        rows = rows.filter(channel=Channel.EMAIL)
    return list(rows.order_by("due_at", "pk").values_list("pk", flat=True)[:limit])


def drain(now: datetime.datetime | None = None, pings: bool | None = None) -> dict[str, int]:
    """Deliver every due row (or those of one queue, see ``due``); what a crashed worker
    or a dead broker left behind."""
    outcome: dict[str, int] = {}
    for pk in due(now, pings=pings):
        result = deliver(pk)
        outcome[result] = outcome.get(result, 0) + 1
    return outcome
