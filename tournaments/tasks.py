"""Celery tasks: tournament steps and ladder pairings. Beat runs the sweeps
(``CELERY_BEAT_SCHEDULE``); a finished game or a new ladder player asks at once
(``tournaments.queue``)."""

from __future__ import annotations

from celery import shared_task

from . import ladders, running
from .models import Ladder

# A tournament takes at most this many steps in one run (start and first round, ...).
MAX_STEPS = 10


@shared_task(ignore_result=True)
def advance(tournament_id: int) -> list[str]:
    """Every step due now of one tournament, each claimed exactly once."""
    done = []
    for _ in range(MAX_STEPS):
        step = running.advance(tournament_id)
        if step is None:
            break
        done.append(step)
    return done


@shared_task(ignore_result=True)
def advance_all() -> int:
    """Beat: each tournament whose sign-up is over or that runs (a round may be over)."""
    return sum(len(advance(pk)) for pk in running.due_ids())


@shared_task(ignore_result=True)
def pair_ladder(ladder_id: int) -> int:
    return len(ladders.pair(ladder_id))


@shared_task(ignore_result=True)
def pair_ladders() -> int:
    """Beat: a pairing run of every ladder."""
    ids = Ladder.objects.filter(active=True).values_list("pk", flat=True)
    return sum(pair_ladder(pk) for pk in ids)
