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

import math
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Game, Pause
from .play import PlayError, _away, _movers, locked

DAY = timedelta(days=1)


def _days(span: timedelta) -> int:
    """Days a pause of ``span`` counts for: every begun day."""
    return math.ceil(span / DAY) if span > timedelta(0) else 0


def days_used(game: Game) -> int:
    """The days of agreed pauses ``game`` has used: each ended pause as long as it
    lasted, the one in force as long as it was agreed."""
    return game.pause_days_used


def days_left(game: Game) -> int:
    return max(game.pause_days - game.pause_days_used, 0)


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
    if game.deadline is not None and game.deadline <= now:
        raise PlayError(_("The time for this move has run out already."), 409)


def start(game: Game, until: datetime) -> None:
    """Stop the locked, running ``game``'s clock until ``until`` (all have agreed)."""
    check_until(game, until)
    now = timezone.now()
    if game.deadline is not None:
        game.paused_remaining = game.deadline - now
        game.deadline = None
    elif game.paused_remaining is None:  # a running game always has one of the two
        game.paused_remaining = timedelta(days=game.time_limit_days)
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
        lasted, agreed = _days(now - pause.began_at), _days(pause.until - pause.began_at)
        game.pause_days_used = max(game.pause_days_used - max(agreed - lasted, 0), 0)
        pause.ended_at, pause.ended = now, how
        pause.save(update_fields=["ended_at", "ended"])
    game.paused_until = None
    left = game.paused_remaining
    if left is None:
        left = timedelta(days=game.time_limit_days)
    if not game.open_seats and not (_away(game, _movers(game)) and left > timedelta(0)):
        game.deadline, game.paused_remaining = now + left, None
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


def due(now: datetime | None = None) -> list[int]:
    """Running games whose agreed pause has come to its end."""
    now = now or timezone.now()
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, paused_until__lte=now)
        .order_by("paused_until", "pk")
        .values_list("pk", flat=True)
    )


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
