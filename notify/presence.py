"""Who has a game open: the game page, board and poll record it (at most once a minute)."""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.utils import timezone

from games.models import Seat

THROTTLE_SECONDS = 60


def seen(request, game_id: int) -> None:
    user = request.user
    if not user.is_authenticated:
        return
    now = timezone.now()
    key = f"notify-seen:{game_id}:{user.pk}"
    # The cache keeps a poll every few seconds from writing every time (a cache
    # that is down answers "not seen", so the write happens: correct, if slower).
    last = cache.get(key)
    if last is not None and now - last < datetime.timedelta(seconds=THROTTLE_SECONDS):
        return
    Seat.objects.filter(game_id=game_id, user=user).update(last_seen=now)
    cache.set(key, now, THROTTLE_SECONDS)
