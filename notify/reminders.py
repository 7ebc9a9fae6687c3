"""Reminders for players who have not moved, and the last warning before the deadline.

Both are once per turn: the dedupe key holds the moment the turn began
(``Seat.to_move_since``), so running the sweep again writes nothing new.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from games.clock import seats as clock
from games.models import Game, Seat

from . import outbox, pings, schedule
from .away import on_vacation_here
from .models import Notification

# The last warning must leave at least this long to move.
WARNING_MARGIN = datetime.timedelta(hours=2)


def _turn_key(seat: Seat) -> str:
    return f"{seat.game_id}:{seat.number}:{int(seat.to_move_since.timestamp() * 1_000_000)}"


def candidates(now: datetime.datetime) -> list[tuple[str, Seat]]:
    """(kind, seat) for every reminder and warning due now."""
    seats = Seat.objects.filter(
        to_move=True, to_move_since__isnull=False, game__status=Game.Status.ACTIVE
    ).select_related("user", "game")
    found = []
    for seat in seats:
        user, game = seat.user, seat.game
        hours = user.notify_reminder_hours
        # A bank's reminder follows it: at the latest halfway through the time left.
        halfway = clock.reminder_due_at(game, seat)
        if hours and (
            seat.to_move_since <= now - datetime.timedelta(hours=hours)
            or (halfway is not None and halfway <= now)
        ):
            found.append((Notification.Kind.REMINDER, seat))
        deadline = clock.deadline_of(game, seat)
        if user.notify_last_warning and deadline and deadline > now:
            if deadline - now <= clock.warning_window(game):
                found.append((Notification.Kind.LAST_WARNING, seat))
    return found


def queue_reminders(now: datetime.datetime | None = None) -> int:
    """Write the reminder and warning rows due now; returns how many are new."""
    now = now or timezone.now()
    wanted = {f"{kind}:{_turn_key(seat)}": (kind, seat) for kind, seat in candidates(now)}
    known = set(
        Notification.objects.filter(dedupe_key__in=wanted).values_list("dedupe_key", flat=True)
    )
    new = 0
    for key, (kind, seat) in wanted.items():
        user, game = seat.user, seat.game
        if on_vacation_here(user, game):
            continue
        row = {
            "user": user,
            "game": game,
            "seat": seat.number,
            "move_count": game.move_count,
            "turn_since": seat.to_move_since,
        }
        # Held by quiet hours it would come too late to be of use: it goes now.
        deadline = clock.deadline_of(game, seat)
        urgent = deadline - WARNING_MARGIN if kind == Notification.Kind.LAST_WARNING else None
        with transaction.atomic():
            if key not in known and user.email:
                due = schedule.send_time(user, now)
                if urgent is not None and due > urgent:
                    due = now
                outbox.queue(**row, kind=kind, address=user.email, due_at=due, dedupe_key=key)
                new += 1
            # Each device and webhook once per turn too (their keys start with theirs).
            pings.queue_for(user, kind, key, now=now, urgent_before=urgent, **row)
    return new
