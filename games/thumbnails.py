"""A small drawing of a running game's board for the lists of games to watch.

Drawn by the title (``registry.GameKind.thumbnail``) from the SPECTATOR's view,
``engine.view(state, None)``, never the state: a list anyone may read shows nothing a
spectator could not see on the game's page. A drawing is kept in the cache per game and
version (a secret step leaves both, and a spectator's view, where they were), so a list
of twenty games draws only those that moved since it was last shown.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from . import replay
from .models import Game

logger = logging.getLogger(__name__)

CACHE_SECONDS = 60 * 60 * 24


def _key(game: Game) -> str:
    return f"thumbnail:{game.pk}:{game.seed}:{game.rules_version}:{game.version}"


def thumbnail(game: Game) -> SafeString | None:
    """The drawing of ``game``'s board as a spectator sees it now, or None where its
    title draws none."""
    draw = game.kind_info.thumbnail
    if draw is None:
        return None
    key = _key(game)
    try:
        drawn = cache.get(key)
    except Exception:  # the cache is an optimisation: without it, draw
        logger.warning("thumbnail cache unavailable", exc_info=True)
        drawn = None
    if drawn is None:
        view = game.engine.view(replay.state_as_read(game), None)
        drawn = draw(view)
        try:
            cache.set(key, drawn, CACHE_SECONDS)
        except Exception:
            logger.warning("thumbnail cache unavailable", exc_info=True)
    return mark_safe(drawn)  # the title's drawing escapes what it draws
