"""Who has a game open: the game page, board and poll record it (at most once a minute)."""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.utils import timezone

from games.models import Seat

logger = logging.getLogger(__name__)

THROTTLE_SECONDS = 60


def seen(request, game_id: int) -> None:
    user = request.user
    if not user.is_authenticated:
        return
    try:
        # The cache keeps a poll every few seconds from writing every time.
        first = cache.add(f"notify-seen:{game_id}:{user.pk}", 1, THROTTLE_SECONDS)
    except Exception:
        logger.warning("cache unavailable; recording presence without throttling")
        first = True
    if first:
        Seat.objects.filter(game_id=game_id, user=user).update(last_seen=timezone.now())
