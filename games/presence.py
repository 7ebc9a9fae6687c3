"""Who has a game open: the game page, board and poll record it (at most once a minute)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from . import spectators
from .models import Seat

THROTTLE_SECONDS = 60
NOT_SEATED = object()


def seen(request, game_id: int, last_seen) -> None:
    """Record that the signed-in viewer has ``game_id`` open.

    ``last_seen``: the viewer's ``Seat.last_seen`` as the caller has just read it
    with the game (``games.views.game_route``; None: never), or NOT_SEATED. The
    row itself is the throttle, so a poll every few seconds writes once a minute.
    """
    user = request.user
    if not user.is_authenticated or last_seen is NOT_SEATED:
        return
    now = timezone.now()
    if last_seen is not None and timezone.is_naive(last_seen):  # SQLite's plain-SQL rows
        last_seen = timezone.make_aware(last_seen, datetime.UTC)
    if last_seen is not None and now - last_seen < datetime.timedelta(seconds=THROTTLE_SECONDS):
        return
    Seat.objects.filter(game_id=game_id, user=user).update(last_seen=now)


def looked_at(request, game) -> None:
    """``game``'s page (or its live stream) was opened by ``request.user``: a player's seat
    records it (``seen``), anyone else signed in counts as a spectator
    (``games.spectators``)."""
    if game.viewer_last_seen is NOT_SEATED:
        spectators.seen(request, game)
    else:
        seen(request, game.pk, game.viewer_last_seen)
