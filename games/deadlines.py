"""The periodic deadline sweep: agreed pauses that have come to their end, vacation
clocks, then timeouts. Which games it visits is the clock's rule (``clock.deadlines``);
this is the loop that hands each to the operation in ``play`` or ``pause``.

Run by Celery beat (``games.tasks.sweep_deadlines``) and by
``manage.py sweep_deadlines`` (cron, by hand). Every change goes through a
function in ``play`` that locks the game and checks again, so overlapping
sweeps are harmless; a game that fails is logged and the sweep goes on.
"""

from __future__ import annotations

import logging
from collections import Counter

from . import pause, play
from .clock import vacation
from .clock.deadlines import clock_candidates, overdue, pauses_due

logger = logging.getLogger(__name__)


def sweep() -> dict[str, int]:
    """One pass; returns how many games' agreed pauses ended (unpaused), how many were
    paused or resumed for vacations, timed out, or failed."""
    counts: Counter[str] = Counter()
    vacation.record_today()
    for game_id in pauses_due():
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
