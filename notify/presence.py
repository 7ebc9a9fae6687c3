"""Who has a game open: the game page, board and poll record it (at most once a minute)."""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.utils import timezone

from games.models import Seat

THROTTLE_SECONDS = 60
UNKNOWN = object()
NOT_SEATED = object()


def seen(request, game_id: int, last_seen=UNKNOWN) -> None:
    """Record that the signed-in viewer has ``game_id`` open.

    ``last_seen``: the viewer's ``Seat.last_seen`` when the caller has just read
    it (None: never), or NOT_SEATED; then the cache is not asked. The game views
    read it with the game (``games.views.game_route``).
    """
    user = request.user
    if not user.is_authenticated or last_seen is NOT_SEATED:
        return
    now = timezone.now()
    key = f"notify-seen:{game_id}:{user.pk}"
    # The cache keeps a poll every few seconds from writing every time (a cache
    # that is down answers "not seen", so the write happens: correct, if slower).
    last = cache.get(key) if last_seen is UNKNOWN else last_seen
    if last is not None and timezone.is_naive(last):  # SQLite's plain-SQL rows
        last = timezone.make_aware(last, datetime.UTC)
    if last is not None and now - last < datetime.timedelta(seconds=THROTTLE_SECONDS):
        return
    Seat.objects.filter(game_id=game_id, user=user).update(last_seen=now)
    cache.set(key, now, THROTTLE_SECONDS)
