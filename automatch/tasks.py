"""Celery tasks: matching open tickets. Beat runs ``match_tickets`` for every title
(``CELERY_BEAT_SCHEDULE``: tickets lapse, computer players fill the tables whose wait
is over); a new ticket asks for its title at once (``tickets.queue_matching``)."""

from __future__ import annotations

from celery import shared_task

from . import seating


@shared_task(ignore_result=True)
def match_tickets(kind: str | None = None) -> int:
    """Start the games the open tickets make now; how many."""
    return len(seating.match_open(kind))
