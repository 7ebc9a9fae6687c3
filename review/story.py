"""The story of a finished game: the title's reading (``GameKind.story``) of the public
view after every position, replayed from the record by the title's engine.

A finished game never changes, so its story is worked out once and kept in the cache
(a replay of a whole game costs a view per position); a cold cache costs that replay
again, nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core.cache import cache

from games import replay
from games.models import Game

# Part of the cache key: a change to what a story holds makes the old ones unread.
FORMAT = 1
CACHE_SECONDS = 60 * 60 * 24 * 30


def _key(game: Game) -> str:
    return f"review:{FORMAT}:{game.pk}:{game.seed}:{game.rules_version}:{game.undo_count}"


def _public_views(game: Game) -> Iterator[dict[str, Any]]:
    """The view every spectator had after each position in force, position 0 first."""
    engine = game.engine
    state = replay.initial_state(game)
    yield engine.view(state, None)
    moves = game.moves.filter(undone=False).order_by("number").values_list("seat", "action")
    for seat, action in moves.iterator():
        state = engine.apply(state, seat, action)
        yield engine.view(state, None)


def story(game: Game) -> dict[str, Any] | None:
    """``{"label", "points": [[per position] per seat], "chapters": [{at, title, lines,
    seats}]}`` of a finished game whose title tells one, else None."""
    tell = game.kind_info.story
    if game.status != Game.Status.FINISHED or tell is None:
        return None
    key = _key(game)
    found = cache.get(key)
    if found is None:
        found = tell(_public_views(game))
        cache.set(key, found, CACHE_SECONDS)
    return found
