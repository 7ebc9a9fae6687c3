"""Who watches a game without a seat: a signed-in player's look at a running public
game (its page or its live stream, not each poll or board swap: those come every few
seconds, and with the cache down the throttle lets every one through), kept for
``WINDOW``. The games to watch (``social.watch``) weigh a game by how many looked at it
lately.

Visitors who are not signed in are not counted: nothing of theirs is written down (the
privacy notice promises no client address in the database).
"""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.utils import timezone

from .models import Game, Spectator

WINDOW = datetime.timedelta(minutes=30)
# A look is written at most this often per game and player: polls come every few seconds.
THROTTLE_SECONDS = 300


def seen(request, game: Game) -> None:
    """Record that the signed-in ``request.user``, who holds no seat, looks at ``game``."""
    user = request.user
    if not user.is_authenticated or game.private or game.status != Game.Status.ACTIVE:
        return
    if not getattr(user, "show_online", True):  # who hides their visits is not recorded
        return
    # With the cache down, ``add`` answers True: every look is written, none lost.
    if not cache.add(f"spectating:{game.pk}:{user.pk}", 1, THROTTLE_SECONDS):
        return
    Spectator.objects.bulk_create(
        [Spectator(game_id=game.pk, user_id=user.pk, seen_at=timezone.now())],
        update_conflicts=True,
        unique_fields=["game", "user"],
        update_fields=["seen_at"],
    )


def counts(game_ids: list[int], now: datetime.datetime | None = None) -> dict[int, int]:
    """How many players without a seat looked at each game within ``WINDOW``."""
    since = (now or timezone.now()) - WINDOW
    rows = (
        Spectator.objects.filter(game_id__in=game_ids, seen_at__gte=since)
        .values("game_id")
        .annotate(n=Count("id"))
    )
    return {row["game_id"]: row["n"] for row in rows}


def stale(now: datetime.datetime) -> QuerySet:
    """The rows older than ``WINDOW`` (for the privacy sweep)."""
    return Spectator.objects.filter(seen_at__lt=now - WINDOW)
