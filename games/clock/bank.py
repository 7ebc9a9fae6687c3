"""The rules of a seat's bank of time, as pure functions of its times (no database).

A bank (Fischer's clock) holds the time a seat has left. It runs only while the seat is
to move and nothing stops the clock (a vacation, an agreed pause, an open seat): then
``Bank.since`` says since when. With weekends off it does not run from Saturday 00:00 to
Monday 00:00 in the player's own time zone (``weekends``: that zone; None: it runs every
day). After each of the seat's turns the increment is added, up to the cap.

All arithmetic is done on UTC instants: subtracting two aware datetimes of the same
zone would count wall-clock time and miss a daylight-saving change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo

ZERO = timedelta(0)
WEEKEND = timedelta(days=2)


@dataclass(frozen=True)
class Pace:
    """What a bank starts with, what each turn adds, and the most it may hold."""

    start: timedelta
    increment: timedelta
    cap: timedelta

    def __post_init__(self) -> None:
        if self.start <= ZERO or self.increment < ZERO or self.cap < self.start:
            raise ValueError("a pace needs 0 < start <= cap and an increment >= 0")


@dataclass(frozen=True)
class Bank:
    """The time ``left`` as of ``since`` while the bank runs; as of now while it stands."""

    left: timedelta
    since: datetime | None = None

    @property
    def running(self) -> bool:
        return self.since is not None


def weekend_around(at: datetime, zone: tzinfo) -> tuple[datetime, datetime]:
    """The local weekend (Saturday 00:00 to Monday 00:00 in ``zone``, as UTC instants)
    that ``at`` falls in, or else the next one."""
    day = at.astimezone(zone).date()
    weekday = day.weekday()  # Monday 0 .. Sunday 6
    saturday = day - timedelta(days=weekday - 5) if weekday >= 5 else day + timedelta(5 - weekday)
    begins = datetime.combine(saturday, time(), zone).astimezone(UTC)
    ends = datetime.combine(saturday + WEEKEND, time(), zone).astimezone(UTC)
    return begins, ends


def running_time(since: datetime, until: datetime, weekends: tzinfo | None = None) -> timedelta:
    """How much of ``since``..``until`` a running bank is charged: all of it, or with
    weekends off all but the weekends."""
    since, until = since.astimezone(UTC), until.astimezone(UTC)
    if until <= since:
        return ZERO
    if weekends is None:
        return until - since
    charged, at = ZERO, since
    while at < until:
        begins, ends = weekend_around(at, weekends)
        if begins > at:
            charged += min(until, begins) - at
        at = ends
    return charged


def left_at(bank: Bank, now: datetime, weekends: tzinfo | None = None) -> timedelta:
    """The time the bank holds at ``now`` (never less than nothing)."""
    if bank.since is None:
        return max(bank.left, ZERO)
    return max(bank.left - running_time(bank.since, now, weekends), ZERO)


def runs_out_at(bank: Bank, weekends: tzinfo | None = None) -> datetime | None:
    """When the running bank is empty (the seat's deadline); None while it stands."""
    if bank.since is None:
        return None
    at, left = bank.since.astimezone(UTC), max(bank.left, ZERO)
    if weekends is None:
        return at + left
    while True:
        begins, ends = weekend_around(at, weekends)
        if begins > at:
            if left <= begins - at:
                return at + left
            left -= begins - at
        at = ends


def run(bank: Bank, now: datetime) -> Bank:
    """The bank starts running at ``now`` (a running one runs on as it was)."""
    return bank if bank.running else Bank(bank.left, now)


def stop(bank: Bank, now: datetime, weekends: tzinfo | None = None) -> Bank:
    """The bank stands from ``now`` with what it holds then."""
    return Bank(left_at(bank, now, weekends)) if bank.running else bank


def end_turn(bank: Bank, now: datetime, pace: Pace, weekends: tzinfo | None = None) -> Bank:
    """The seat handed on its turn at ``now``: the bank stands, the increment added, capped."""
    return Bank(min(left_at(bank, now, weekends) + pace.increment, pace.cap))


def halfway(bank: Bank, weekends: tzinfo | None = None) -> datetime | None:
    """When a running bank has spent half of what it held when it started (a reminder
    comes then at the latest, so a short bank is not reminded after it ran out)."""
    if bank.since is None:
        return None
    return runs_out_at(Bank(bank.left / 2, bank.since), weekends)
