"""Sending outbox rows: claim one, compose its message at send time (an e-mail, a push
or a webhook post), send it, and record what happened (sent, skipped, postponed,
failed and retried with backoff)."""

from __future__ import annotations

import datetime
import logging

from django.utils import timezone

from . import push, signals
from .compose import compose
from .models import INTERRUPTED, Notification
from .outbox import Postpone, Skip, backoff, claim, claimable

logger = logging.getLogger(__name__)


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
        # Its worker died after connecting: the receiver may have it. Never twice.
        Notification.objects.filter(pk=pk, claimed_at=now).update(skipped=INTERRUPTED)
        return "interrupted"
    bundled: list[int] = []
    try:
        message, bundled = compose(row, now)
    except Skip as reason:
        Notification.objects.filter(pk=pk).update(skipped=str(reason)[:100] or "skipped")
        return "skipped"
    except Postpone as later:
        Notification.objects.filter(pk=pk).update(due_at=later.until, claimed_at=None)
        return "postponed"
    except Exception as error:
        logger.exception("could not compose notification %s", pk)
        _failed(row, now, error)
        return "failed"
    try:
        if row.channel == Notification.Channel.EMAIL:
            message.send()
        else:
            message.send(on_connected=lambda: _sending(pk, now))
    except (Skip, push.Gone, push.Rejected) as reason:
        # Nothing to retry: the device is gone, or its push service refuses this for good.
        Notification.objects.filter(pk=pk).update(
            skipped=str(reason)[:100] or "skipped", sending_at=None
        )
        Notification.objects.filter(pk__in=bundled).update(claimed_at=None)
        return "skipped"
    except Exception as error:
        logger.warning("could not send notification %s: %s", pk, error)
        _failed(row, now, error)
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


def _sending(pk: int, claimed_at: datetime.datetime) -> None:
    Notification.objects.filter(pk=pk, claimed_at=claimed_at).update(sending_at=timezone.now())


def _failed(row: Notification, now: datetime.datetime, error: Exception) -> None:
    attempts = row.attempts + 1
    Notification.objects.filter(pk=row.pk).update(
        claimed_at=None,
        sending_at=None,
        attempts=attempts,
        next_attempt_at=now + backoff(attempts),
        last_error=f"{type(error).__name__}: {error}"[:2000],
    )


def due(now: datetime.datetime | None = None, limit: int = 500) -> list[int]:
    now = now or timezone.now()
    rows = claimable(now).filter(in_digest=False).order_by("due_at", "pk")
    return list(rows.values_list("pk", flat=True)[:limit])


def drain(now: datetime.datetime | None = None) -> dict[str, int]:
    """Deliver every due row; what a crashed worker or a dead broker left behind."""
    outcome: dict[str, int] = {}
    for pk in due(now):
        result = deliver(pk)
        outcome[result] = outcome.get(result, 0) + 1
    return outcome
