"""Rebuild a game's state from its seed and move log.

The log in the database is the single source of truth. The latest state is
cached (Django's cache: Redis in production) under a key that changes when a
move is taken back, so a request only replays the moves made since.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

CACHE_SECONDS = 60 * 60 * 24


def _cache_key(game) -> str:
    # The seed makes a key unique to this game even if ids are reused.
    return f"game-state:{game.pk}:{game.seed}:{game.rules_version}:{game.undo_count}"


def initial_state(game) -> Any:
    return game.engine.setup(game.players, game.options, game.seed)


def current_state(game) -> Any:
    """The state after every move in force, replaying only what the cache lacks."""
    engine = game.engine
    cached = cache.get(_cache_key(game))
    moves = game.moves.filter(undone=False).order_by("number")
    # ``game`` may have been read before a take-back: trust the cached state
    # only if the log still holds exactly the moves it was built from.
    if cached is not None and moves.filter(number__lte=cached[0]).count() == cached[1]:
        last_number, count, state = cached
        moves = moves.filter(number__gt=last_number)
    else:
        last_number, count, state = 0, 0, initial_state(game)
    for move in moves:
        state = engine.apply(state, move.seat, move.action)
        last_number, count = move.number, count + 1
    if cached is None or cached[1] != count:
        store(game, last_number, count, state)
    return state


def store(game, last_number: int, count: int, state: Any) -> None:
    cache.set(_cache_key(game), (last_number, count, state), CACHE_SECONDS)


def state_at(game, count: int) -> Any:
    """The state after the first ``count`` moves in force (history, "since you
    last looked"). A past position never changes while the take-back count
    stays the same, so each one is replayed once and then read from the cache."""
    key = f"{_cache_key(game)}:at:{count}"
    state = cache.get(key)
    if state is None:
        state = _replay(game, count)
        cache.set(key, state, CACHE_SECONDS)
    return state


def _replay(game, count: int) -> Any:
    engine = game.engine
    state = initial_state(game)
    for move in game.moves.filter(undone=False).order_by("number")[:count]:
        state = engine.apply(state, move.seat, move.action)
    return state


def fresh_replay(game) -> Any:
    """Replay the whole log, ignoring the cache (used to check the cache and logs)."""
    return _replay(game, game.move_count)
