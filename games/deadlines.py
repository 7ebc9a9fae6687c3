"""The periodic deadline sweep: agreed pauses that have come to their end, vacation
clocks, then timeouts.

Run by Celery beat (``games.tasks.sweep_deadlines``) and by
``manage.py sweep_deadlines`` (cron, by hand). Every change goes through a
function in ``play`` that locks the game and checks again, so overlapping
sweeps are harmless; a game that fails is logged and the sweep goes on.
"""

from __future__ import annotations

import logging
from collections import Counter

from django.db.models import Q
from django.utils import timezone

from . import pause, play, vacation
from .models import Game

logger = logging.getLogger(__name__)


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


def sweep() -> dict[str, int]:
    """One pass; returns how many games' agreed pauses ended (unpaused), how many were
    paused or resumed for vacations, timed out, or failed."""
    counts: Counter[str] = Counter()
    vacation.record_today()
    for game_id in pause.due():
        try:
            if pause.end_due(game_id):
                counts["unpaused"] += 1
        except Exception:
            logger.exception("deadline sweep: ending the pause of game %s failed", game_id)
            counts["failed"] += 1
    for game_id in clock_candidates():
        try:
            outcome = play.sync_clock(game_id)
        except Exception:
            logger.exception("deadline sweep: the clock of game %s failed", game_id)
            counts["failed"] += 1
            continue
        if outcome:
            counts[outcome] += 1
    for game_id, deadline in overdue():
        try:
            outcome = play.time_out(game_id, deadline)
        except Exception:
            logger.exception("deadline sweep: timing out game %s failed", game_id)
            counts["failed"] += 1
            continue
        if outcome:
            counts["timed_out"] += 1
            counts[outcome] += 1
    return {
        key: counts[key]
        for key in ("unpaused", "paused", "resumed", "timed_out", "lost", "aborted", "failed")
    }
