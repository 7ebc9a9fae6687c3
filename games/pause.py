"""Agreed pauses: the clock of a running game stands still until a date all its players
agreed on (how they agree is a feature app's business; this is the clock's).

While ``Game.paused_until`` is set, the deadline is None and ``paused_remaining`` holds
the time that was left, as for a vacation (``play._after_change`` keeps it so through
moves, which players may still make). The pause ends when its date comes (the deadline
sweep, ``end_due``), when the players agree to resume earlier, when a moderator ends it
or when the game ends; the clock then runs on with the time that was left, unless a
vacation or an open seat still holds it. A game allows ``Game.pause_days`` days of
agreed pauses in all (chosen at creation); each one counts with the days it lasted
(``Game.pause_days_used``; every begun day counts).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .clock import running
from .clock.deadlines import pauses_due as due
from .clock.pause import days_for as _days
from .clock.pause import days_left, days_used, given_back
from .models import Game, Pause
from .play import PlayError, _away, _movers, locked

__all__ = ["check_until", "days_left", "days_used", "due", "end", "end_due", "end_now", "start"]


def check_until(game: Game, until: datetime) -> None:
    """Refuse a pause ``until`` that ``game`` cannot have (PlayError, saying why)."""
    now = timezone.now()
    if game.pause_days == 0:
        raise PlayError(_("This game was created without agreed pauses."), 409)
    if game.paused_until is not None:
        raise PlayError(_("The game is paused already."), 409)
    if until <= now:
        raise PlayError(_("A pause must end in the future."))
    left = days_left(game)
    if _days(until - now) > left:
        raise PlayError(
            _("This game has %(n)d days of agreed pauses left; choose an earlier date.")
            % {"n": left}
        )
    movers = _movers(game)
    if game.deadline is not None and running.time_left(game, movers, now) <= timedelta(0):
        raise PlayError(_("The time for this move has run out already."), 409)


def start(game: Game, until: datetime) -> None:
    """Stop the locked, running ``game``'s clock until ``until`` (all have agreed)."""
    check_until(game, until)
    now = timezone.now()
    running.stop(game, list(game.seats.select_related("user")), now)
    game.paused_until = until
    game.pause_days_used += _days(until - now)
    game.version += 1
    game.save(
        update_fields=["deadline", "paused_remaining", "paused_until", "pause_days_used", "version"]
    )
    Pause.objects.create(game=game, began_at=now, until=until)


def end(game: Game, how: str) -> None:
    """End the agreed pause of the locked ``game`` (``how``: a ``Pause.Ended``); the
    clock runs on with the time that was left, unless a vacation or an open seat
    still holds it (then the vacation sweep or the substitute restarts it)."""
    if game.status != Game.Status.ACTIVE or game.paused_until is None:
        raise PlayError(_("The game is not paused by agreement."), 409)
    now = timezone.now()
    for pause in Pause.objects.filter(game=game, ended_at=None):
        # An early end gives back the days agreed but not used.
        back = given_back(pause.began_at, pause.until, now)
        game.pause_days_used = max(game.pause_days_used - back, 0)
        pause.ended_at, pause.ended = now, how
        pause.save(update_fields=["ended_at", "ended"])
    game.paused_until = None
    movers = _movers(game)
    left = running.time_left(game, movers, now)
    if not game.open_seats and not (_away(game, movers) and left > timedelta(0)):
        running.restart(game, list(game.seats.select_related("user")), now)
    game.version += 1
    game.save(
        update_fields=["deadline", "paused_remaining", "paused_until", "pause_days_used", "version"]
    )


def end_now(game_id: int, how: str) -> Game:
    """``end`` in a transaction of its own (a moderator, the sweep)."""
    with transaction.atomic():
        game = locked(game_id)
        end(game, how)
    return game


def end_due(game_id: int) -> bool:
    """End ``game_id``'s pause if its date has come (the sweep; safe to run twice)."""
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.ACTIVE or game.paused_until is None:
            return False
        if game.paused_until > timezone.now():
            return False
        end(game, Pause.Ended.TIME)
    return True
