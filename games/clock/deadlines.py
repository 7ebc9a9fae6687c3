"""The deadline sweep's questions: which running games' clocks may have to stop or
restart for a vacation, whose deadline has passed, whose agreed pause has ended.
A deadline is the moment the first running bank (or the time per move) runs out, so
one indexed comparison finds the late games however many run."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from ..models import Game


def clock_candidates() -> list[int]:
    """Running games whose clock may have to stop or restart for a vacation."""
    today = timezone.localdate()
    to_pause = Game.objects.filter(
        status=Game.Status.ACTIVE,
        paused_until__isnull=True,
        vacation_allowed=True,
        deadline__isnull=False,
        seats__to_move=True,
        seats__user__vacation_until__gte=today,
    )
    # Stopped clocks with someone to move who is back (one filter: the same seat).
    back = Q(seats__user__vacation_until__isnull=True) | Q(seats__user__vacation_until__lt=today)
    to_resume = Game.objects.filter(
        status=Game.Status.ACTIVE, deadline__isnull=True, paused_until__isnull=True
    ).filter(Q(vacation_allowed=False) | Q(seats__to_move=True) & back)
    ids = set(to_pause.values_list("pk", flat=True)) | set(to_resume.values_list("pk", flat=True))
    return sorted(ids)


def overdue() -> list[tuple[int, object]]:
    """(game id, deadline) of running games whose deadline has passed."""
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lt=timezone.now())
        .order_by("deadline", "pk")
        .values_list("pk", "deadline")
    )


def pauses_due(now: datetime | None = None) -> list[int]:
    """Running games whose agreed pause has come to its end."""
    now = now or timezone.now()
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, paused_until__lte=now)
        .order_by("paused_until", "pk")
        .values_list("pk", flat=True)
    )
