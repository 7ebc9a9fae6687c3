"""The bank rules (``bank``) applied to a game's seats: what the frame stores of them
(``Seat.bank``, ``Seat.bank_since``) and what it derives (``Game.deadline``: the moment
the first running bank empties, which the sweep, the lists and the calendar read)."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Any

from django.utils import timezone

from . import bank as rules
from . import zones
from .bank import Bank, Pace


def clock_minute() -> datetime:
    """Now, to the minute: a page draws the banks as of it, so that a page cached within
    the minute is the page drawn afresh (its key holds the minute)."""
    return timezone.now().replace(second=0, microsecond=0)


def pace_of(game) -> Pace | None:
    """The game's pace; None for a fixed time per move."""
    if game.bank_start is None:
        return None
    return Pace(game.bank_start, game.bank_increment or timedelta(0), game.bank_cap)


def weekends_of(game, user) -> tzinfo | None:
    """The zone whose weekends stop ``user``'s bank in ``game``, if it has weekends off."""
    if not game.weekends_off:
        return None
    return zones.of(user)


def bank_of(game, seat) -> Bank:
    """The seat's bank; a seat that never held one (a new one, a substitute's, a
    computer standing in) starts with the pace's starting time."""
    if seat.bank is None:
        return Bank(game.bank_start)
    return Bank(seat.bank, seat.bank_since)


def left(game, seat, now: datetime) -> timedelta:
    return rules.left_at(bank_of(game, seat), now, weekends_of(game, seat.user))


def runs_out_at(game, seat) -> datetime | None:
    """When the seat's bank empties (None: it stands, or the game has no banks)."""
    if game.bank_start is None or seat.bank_since is None:
        return None
    return rules.runs_out_at(bank_of(game, seat), weekends_of(game, seat.user))


def settle(game, seats: list, now: datetime, *, ended: set[int], stopped: bool) -> None:
    """Bring every seat's bank in line at ``now`` and set the game's deadline.

    ``ended``: the seat numbers that handed on their turn now (they get the increment;
    one to move again, its turn come back at once, starts a new turn);
    ``stopped``: the clock stands (vacation, agreed pause, open seat). A seat's bank runs
    while it is to move and the clock does not stand; every other bank stands.
    Saves the seats that changed; the caller saves the game.
    """
    pace = pace_of(game)
    deadlines, stopped_left = [], []
    for seat in seats:
        zone = weekends_of(game, seat.user)
        was = bank_of(game, seat)
        if seat.number in ended:
            now_bank = rules.end_turn(was, now, pace, zone)
            if seat.to_move and not stopped:
                now_bank = rules.run(now_bank, now)
        elif seat.to_move and not stopped:
            now_bank = rules.run(was, now)
        else:
            now_bank = rules.stop(was, now, zone)
        if (seat.bank, seat.bank_since) != (now_bank.left, now_bank.since):
            seat.bank, seat.bank_since = now_bank.left, now_bank.since
            if seat.pk is not None:
                seat.save(update_fields=["bank", "bank_since"])
        if seat.to_move:
            if now_bank.running:
                deadlines.append(rules.runs_out_at(now_bank, zone))
            else:
                stopped_left.append(now_bank.left)
    game.deadline = min(deadlines) if deadlines else None
    # What the pages say while the clock stands: the least time a seat to move has.
    game.paused_remaining = min(stopped_left) if stopped_left and not deadlines else None


def rezone(game, seats: list, user_id: int, before: tzinfo, now: datetime) -> bool:
    """The player ``user_id`` moved from time zone ``before`` at ``now`` (their new one
    is their user row's): each running bank of theirs is charged up to now by the old
    zone's weekends and runs on from now by the new one's, and the game's deadline
    follows. Whether anything changed; saves the seats, the caller saves the game."""
    if not game.weekends_off or game.bank_start is None:
        return False
    moved = False
    for seat in seats:
        if seat.user_id == user_id and seat.bank_since is not None:
            seat.bank = rules.left_at(bank_of(game, seat), now, before)
            seat.bank_since = now
            seat.save(update_fields=["bank", "bank_since"])
            moved = True
    if moved:
        running = [runs_out_at(game, seat) for seat in seats if seat.to_move]
        game.deadline = min((at for at in running if at is not None), default=None)
    return moved


def late(game, movers: list, now: datetime) -> list:
    """The seats to move whose bank has run out by ``now``."""
    return [seat for seat in movers if left(game, seat, now) <= timedelta(0)]


def clock_state(game, seat, now: datetime) -> dict[str, Any]:
    """A seat's clock as plain data (the game page's countdown, an API): seconds left,
    whether it runs, when it empties and when it next stops for a weekend.

    For a fixed time per move, the seats to move share the game's deadline."""
    if game.bank_start is None:
        running = seat.to_move and game.deadline is not None
        if running:
            seconds = max((game.deadline - now).total_seconds(), 0)
        elif seat.to_move and game.paused_remaining is not None:
            seconds = game.paused_remaining.total_seconds()
        else:
            seconds = None
        return {
            "kind": "per_move",
            "seconds_left": None if seconds is None else int(seconds),
            "running": running,
            "runs_out_at": game.deadline if running else None,
            "stops_at": None,
            "at": now,
        }
    zone = weekends_of(game, seat.user)
    current = bank_of(game, seat)
    stops_at = None
    if current.running and zone is not None:
        begins, ends = rules.weekend_around(now, zone)
        if begins <= now:  # a weekend now: the bank stands until Monday
            stops_at = now
        else:
            stops_at = begins
    return {
        "kind": "bank",
        "seconds_left": int(rules.left_at(current, now, zone).total_seconds()),
        "running": current.running and stops_at != now,
        "runs_out_at": rules.runs_out_at(current, zone),
        "stops_at": stops_at,
        "at": now,
    }


def deadline_of(game, seat) -> datetime | None:
    """When ``seat`` runs out of time: its own bank's end, or the game's deadline."""
    if game.bank_start is None:
        return game.deadline
    return runs_out_at(game, seat)


def warning_window(game) -> timedelta:
    """How long before a seat's deadline its last warning comes: a quarter of the time
    per move, or of the most a bank holds."""
    if game.bank_start is None:
        return timedelta(days=game.time_limit_days) / 4
    return (game.bank_cap or game.bank_start) / 4


def reminder_due_at(game, seat) -> datetime | None:
    """With a bank, the reminder comes at the latest when half of what the seat held at
    the start of its turn is spent (after the player's own hours it may come earlier)."""
    if game.bank_start is None or seat.bank_since is None:
        return None
    return rules.halfway(bank_of(game, seat), weekends_of(game, seat.user))
