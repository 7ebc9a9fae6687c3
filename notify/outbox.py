"""Writing and claiming outbox rows (``notify.delivery`` sends them).

A row is written in the transaction that causes it (a move, a sign-up), so it
exists exactly when the change does. After commit a Celery task delivers it;
if the broker is down the periodic drain finds it. A row is claimed with a
conditional UPDATE before sending, so two workers never both send it.
"""

from __future__ import annotations

import datetime
import email.utils
import logging

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import schedule
from .models import Notification

logger = logging.getLogger(__name__)

# The tasks that deliver one row (notify.tasks), called by their names: they run
# notify.delivery, which reads this module, so importing it here would close a circle.
# NotifyConfig.ready imports notify.tasks, so the names are known wherever rows are
# queued (an eager task, as in the tests and ``make run``, runs in this process).
# E-mail goes on the default queue; pushes and webhook posts on a queue of their own
# (settings.CELERY_TASK_ROUTES), so a slow receiver never holds up a mail.
DELIVER_TASK = "notify.tasks.deliver"
DELIVER_PING_TASK = "notify.tasks.deliver_ping"

# A claim older than this belongs to a worker that died while sending. A push or a
# webhook post gives up after a few seconds (settings.PING_TIMEOUT), so its claim
# expires sooner (settings.PING_CLAIM_TIMEOUT): a killed worker's ping goes soon.
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)


def ping_claim_timeout() -> datetime.timedelta:
    """How long a push or post holds its row: past the longest a post takes (connecting
    and reading, each up to PING_TIMEOUT), so no second post starts while the first may
    still be on its way (the README asks for more than twice PING_TIMEOUT)."""
    return datetime.timedelta(seconds=settings.PING_CLAIM_TIMEOUT)


def unclaimed(now: datetime.datetime) -> Q:
    """Rows nobody holds: never claimed, or claimed by a worker that died."""
    email = Q(channel=Notification.Channel.EMAIL)
    return (
        Q(claimed_at=None)
        | (email & Q(claimed_at__lt=now - CLAIM_TIMEOUT))
        | (~email & Q(claimed_at__lt=now - ping_claim_timeout()))
    )


MAX_BACKOFF = datetime.timedelta(hours=6)
# A receiver's Retry-After is followed, but a "retry at once" does not make a loop.
MIN_RETRY_AFTER = datetime.timedelta(seconds=10)
# A retry due sooner than this is queued with a countdown; a later one waits for the drain.
COUNTDOWN_LIMIT = datetime.timedelta(minutes=10)


class Skip(Exception):
    """The e-mail is no longer wanted (preference changed, player already moved, ...)."""


class RetryLater(OSError):
    """The receiver is busy (a 429 or 503) and said when to come back (Retry-After)."""

    def __init__(self, message: str, until: datetime.datetime | None) -> None:
        super().__init__(message)
        self.until = until


def retry_after(headers: dict[str, str], now: datetime.datetime) -> datetime.datetime | None:
    """When a busy receiver's ``Retry-After`` (seconds, or an HTTP date) says to come
    back, within MIN_RETRY_AFTER and MAX_BACKOFF of ``now``; None without one."""
    value = headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdigit():
        at = now + datetime.timedelta(seconds=int(value))
    else:
        try:
            at = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if at.tzinfo is None:
            at = at.replace(tzinfo=datetime.UTC)
    return min(max(at, now + MIN_RETRY_AFTER), now + MAX_BACKOFF)


class Postpone(Exception):
    """Not now (the player has the game open): ask again at ``until``."""

    def __init__(self, until: datetime.datetime) -> None:
        super().__init__(until)
        self.until = until


def queue(
    *,
    kind: str,
    dedupe_key: str,
    address: str = "",
    channel: str = Notification.Channel.EMAIL,
    device=None,
    webhook=None,
    user=None,
    game=None,
    seat: int | None = None,
    chat_message=None,
    move_count: int | None = None,
    turn_since: datetime.datetime | None = None,
    due_at: datetime.datetime | None = None,
    in_digest: bool = False,
    subject: str = "",
    text: str = "",
    html: str = "",
    covered_by: Notification | None = None,
) -> Notification:
    """Write a row unless one with ``dedupe_key`` exists; deliver it after commit if due
    (a row ``covered_by`` a message that carries it goes with that one)."""
    now = timezone.now()
    row, created = Notification.objects.get_or_create(
        dedupe_key=dedupe_key,
        defaults={
            "kind": kind,
            "channel": channel,
            "address": address,
            "device": device,
            "webhook": webhook,
            "user": user,
            "game": game,
            "seat": seat,
            "chat_message": chat_message,
            "move_count": move_count,
            "turn_since": turn_since,
            "due_at": due_at or now,
            "in_digest": in_digest,
            "subject": subject[:250],
            "text": text,
            "html": html,
            "covered_by": covered_by,
        },
    )
    if created and kind == Notification.Kind.GAME_STARTED and game is not None and not in_digest:
        remember_start(row)
    if created and not in_digest and covered_by is None and row.due_at <= now:
        transaction.on_commit(lambda: enqueue(row.pk, row.channel))
    return row


# Where a game object keeps the start messages written in the transaction that started it.
STARTS = "_notify_start_rows"


def _endpoint_key(user, channel: str, device, webhook) -> tuple:
    return (
        getattr(user, "pk", user),
        channel,
        getattr(device, "pk", device),
        getattr(webhook, "pk", webhook),
    )


def remember_start(row: Notification) -> None:
    """Note a start message on its game object, for the first turn written after it in
    the same transaction (``pending_start``); forgotten when the transaction ends."""
    game = row.game
    if not hasattr(game, STARTS):
        setattr(game, STARTS, {})
        transaction.on_commit(lambda: game.__dict__.pop(STARTS, None))
    key = _endpoint_key(row.user_id, row.channel, row.device_id, row.webhook_id)
    getattr(game, STARTS)[key] = row


def pending_start(game, user, channel: str, device=None, webhook=None) -> Notification | None:
    """The start message of ``game`` to ``user`` on this channel, if it was written in this
    transaction (so no worker can have it yet): it carries the player's first turn
    (notify.compose), and that turn's row waits for it. No query: it is on the game."""
    return getattr(game, STARTS, {}).get(_endpoint_key(user, channel, device, webhook))


def queue_turn(row: dict, user, prefix: str, key: str, quiet: bool, digest: bool) -> None:
    """A turn's row on one channel (``prefix`` names it: "" for e-mail), at the end of
    the quiet hours if the channel follows them, or kept for the channel's daily
    digest if it follows the digest and the player has one."""
    if not digest or user.digest_hour is None:
        target = {k: row.get(k) for k in ("device", "webhook")}
        channel = row.get("channel", Notification.Channel.EMAIL)
        queue(
            **row,
            kind=Notification.Kind.TURN,
            dedupe_key=prefix + key,
            due_at=due_time(user, quiet),
            covered_by=pending_start(row.get("game"), user, channel, **target),
        )
        return
    at = schedule.next_digest(user)
    channel = {k: row[k] for k in ("channel", "address", "device", "webhook") if k in row}
    for _ in range(2):
        found = queue(
            **channel,
            kind=Notification.Kind.DIGEST,
            user=user,
            due_at=at,
            dedupe_key=f"{prefix}digest:{user.pk}:{at.date().isoformat()}",
        )
        if found.claimed_at is None and found.sent_at is None and not found.skipped:
            break
        # Today's digest is going or gone: this turn waits for tomorrow's.
        at = schedule.next_digest(user, at + datetime.timedelta(hours=1))
    queue(**row, kind=Notification.Kind.TURN, dedupe_key=prefix + key, due_at=at, in_digest=True)


def enqueue(
    pk: int, channel: str = Notification.Channel.EMAIL, countdown: float | None = None
) -> None:
    """Hand a row to a worker (of its channel's queue); never fails the request that
    caused it."""
    task = DELIVER_TASK if channel == Notification.Channel.EMAIL else DELIVER_PING_TASK
    try:
        current_app.signature(task, args=(pk,)).apply_async(countdown=countdown)
    except Exception:
        # Broker down (or, when eager, anything else): the drain sends it later.
        logger.warning("could not queue delivery of notification %s", pk, exc_info=True)


def claimable(now: datetime.datetime):
    return (
        Notification.objects.filter(sent_at=None, skipped="", due_at__lte=now, covered_by=None)
        .filter(Q(next_attempt_at=None) | Q(next_attempt_at__lte=now))
        .filter(unclaimed(now))
    )


def claim(pk: int, now: datetime.datetime) -> bool:
    return claimable(now).filter(pk=pk).update(claimed_at=now) == 1


def backoff(attempts: int) -> datetime.timedelta:
    return min(datetime.timedelta(minutes=2**attempts), MAX_BACKOFF)


def reschedule(user, now: datetime.datetime | None = None) -> int:
    """Move ``user``'s waiting messages to the times their settings give now (quiet
    hours, digest hour or time zone changed, or a channel's choice of them); returns
    how many go sooner. Each channel is rescheduled on its own: the e-mail, each push
    device and each webhook, after the quiet hours and digest it follows.

    A message held by quiet hours goes when the new ones end, or at once without
    them. It never goes later than it was due: a last warning is timed to
    arrive while it is of use. Turns kept for the daily digest wait for the
    new digest hour, or, with the digest turned off, go as messages of their own.
    """
    now = now or timezone.now()
    waiting = Notification.objects.filter(user=user, sent_at=None, skipped="", claimed_at=None)
    email = Notification.Channel.EMAIL
    freed = _reschedule(waiting.filter(channel=email), user, True, True, now)
    for device in user.push_devices.all():
        rows = waiting.filter(channel=Notification.Channel.PUSH, device=device)
        freed += _reschedule(rows, user, device.quiet_hours, device.digest, now)
    for hook in user.webhooks.filter(game=None):
        rows = waiting.filter(channel=Notification.Channel.WEBHOOK, webhook=hook)
        freed += _reschedule(rows, user, hook.quiet_hours, hook.digest, now)
    return freed


def due_time(user, quiet: bool, now: datetime.datetime | None = None) -> datetime.datetime:
    """Now, or the end of the user's quiet hours for a channel that follows them."""
    now = now or timezone.now()
    return schedule.send_time(user, now) if quiet else now


def _reschedule(waiting, user, quiet: bool, digest: bool, now: datetime.datetime) -> int:
    kind = Notification.Kind
    soon = due_time(user, quiet, now)
    messages = waiting.exclude(kind__in=[kind.DIGEST, kind.RAW, kind.TEST])
    if user.digest_hour is None or not digest:
        waiting.filter(kind=kind.DIGEST).update(skipped="digest turned off")
        freed = list(
            messages.filter(Q(in_digest=True) | Q(due_at__gt=soon)).values_list("pk", "channel")
        )
    else:
        at = schedule.next_digest(user, now)
        waiting.filter(Q(kind=kind.DIGEST) | Q(in_digest=True)).update(due_at=at)
        freed = list(messages.filter(in_digest=False, due_at__gt=soon).values_list("pk", "channel"))
    messages.filter(pk__in=[pk for pk, _ in freed]).update(in_digest=False, due_at=soon)
    if soon <= now:
        for pk, channel in freed:
            transaction.on_commit(lambda pk=pk, channel=channel: enqueue(pk, channel))
    return len(freed)
