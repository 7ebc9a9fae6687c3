"""Stopping and restarting a game's clock (a vacation, an agreed pause, an open seat),
for both kinds of clock: the fixed time per move keeps the game's time left in
``Game.paused_remaining``; banks stand with what each seat holds (``seats.settle``).
The caller holds the game's lock and saves the game."""

from __future__ import annotations

from datetime import datetime, timedelta

from . import seats as banks


def stop(game, seats: list, now: datetime) -> None:
    if game.has_bank:
        banks.settle(game, seats, now, ended=set(), stopped=True)
        return
    if game.deadline is not None:
        game.paused_remaining = game.deadline - now
        game.deadline = None
    elif game.paused_remaining is None:  # a running game always has one of the two
        game.paused_remaining = timedelta(days=game.time_limit_days)


def restart(game, seats: list, now: datetime) -> None:
    if game.has_bank:
        banks.settle(game, seats, now, ended=set(), stopped=False)
        return
    left = game.paused_remaining
    if left is None:  # a running game always has one of the two; repair if not
        left = timedelta(days=game.time_limit_days)
    game.deadline, game.paused_remaining = now + left, None


def time_left(game, movers: list, now: datetime) -> timedelta:
    """The least time a seat to move has: 0 once anyone's time has run out."""
    if game.has_bank:
        return min((banks.left(game, seat, now) for seat in movers), default=timedelta(0))
    if game.deadline is not None:
        return max(game.deadline - now, timedelta(0))
    return game.paused_remaining or timedelta(0)
