"""The time rules of agreed pauses: how many days a pause counts for (every begun day)
and how many a game has left. ``games.pause`` starts and ends them."""

from __future__ import annotations

import math
from datetime import timedelta

DAY = timedelta(days=1)


def days_for(span: timedelta) -> int:
    """Days a pause of ``span`` counts for: every begun day."""
    return math.ceil(span / DAY) if span > timedelta(0) else 0


def days_used(game) -> int:
    """The days of agreed pauses ``game`` has used: each ended pause as long as it
    lasted, the one in force as long as it was agreed."""
    return game.pause_days_used


def days_left(game) -> int:
    return max(game.pause_days - game.pause_days_used, 0)


def given_back(began, until, now) -> int:
    """The days agreed but not used when a pause that ``began`` and was agreed ``until``
    ends at ``now`` (an early end)."""
    return max(days_for(until - began) - days_for(now - began), 0)
