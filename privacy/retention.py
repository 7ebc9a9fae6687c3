"""Deleting what the privacy notice promises to keep no longer, after the periods in
settings (``RETAIN_*``): beat runs ``apply`` hourly (``privacy.tasks``), and
``manage.py retention [--dry-run]`` by hand.

Client addresses are not here: nothing writes one to the database, and the caches that
hold one expire on their own within ``RETAIN_ADDRESS_MINUTES`` (``privacy.operator``'s
check fails a configuration that would keep one longer).
"""

from __future__ import annotations

import datetime

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games import spectators
from games.models import Seat
from notify.models import Notification


def unverified_accounts(now: datetime.datetime) -> QuerySet:
    """Accounts older than the period whose address was never confirmed, that never
    signed in and never sat at a game: sign-ups nobody finished (or someone else's
    address typed in). Staff and the site's computer players are never among them.
    An account that did sit at a game stays: deleting it must first hand its games on
    (the account deletion of ``accounts``), which this sweep does not do."""
    cutoff = now - datetime.timedelta(days=settings.RETAIN_UNVERIFIED_DAYS)
    verified = EmailAddress.objects.filter(user=OuterRef("pk"), verified=True)
    seated = Seat.objects.filter(user=OuterRef("pk"))
    return get_user_model().objects.filter(
        ~Exists(verified),
        ~Exists(seated),
        date_joined__lt=cutoff,
        last_login__isnull=True,
        is_staff=False,
        is_superuser=False,
        is_bot=False,
    )


def finished_deliveries(now: datetime.datetime) -> QuerySet:
    """Outbox rows (mail, push, webhook posts: address, text, delivery errors) sent,
    skipped, or failing on every attempt for longer than the period."""
    cutoff = now - datetime.timedelta(days=settings.RETAIN_SENT_DAYS)
    return Notification.objects.filter(
        Q(sent_at__lt=cutoff)
        | (Q(sent_at=None) & ~Q(skipped="") & Q(created_at__lt=cutoff))
        | (Q(sent_at=None, skipped="", attempts__gt=0) & Q(created_at__lt=cutoff))
    )


def expired_sessions(now: datetime.datetime) -> QuerySet:
    """Sign-in sessions past their end: Django's database sessions stay until deleted."""
    return Session.objects.filter(expire_date__lt=now)


SWEEPS = {
    "unverified accounts": unverified_accounts,
    "sent or abandoned outbox rows": finished_deliveries,
    "expired sessions": expired_sessions,
    "spectators' looks at games": spectators.stale,
}


def apply(now: datetime.datetime | None = None, dry_run: bool = False) -> dict[str, int]:
    """Delete (or, ``dry_run``, count) what is due; how many of each."""
    now = now or timezone.now()
    done = {}
    for name, due in SWEEPS.items():
        rows = due(now)
        if dry_run:
            done[name] = rows.count()
            continue
        with transaction.atomic():
            # The rows themselves, not what cascades with them (an account's address rows).
            done[name] = (
                rows.model.objects.filter(pk__in=rows.values("pk"))
                .delete()[1]
                .get(rows.model._meta.label, 0)
            )
    return done
