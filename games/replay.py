"""Rebuild a game's state from its seed and move log.

The log in the database is the single source of truth. Two layers keep a
request from replaying it from move 1:

- **Snapshots** (``Snapshot`` rows, persistent): the state after a move that
  handed the turn over (the seats to move changed), and within a long turn
  every ``SNAPSHOT_EVERY`` moves. A position is rebuilt from the latest
  snapshot at or before it, so no request replays more than one turn (or
  ``SNAPSHOT_EVERY`` moves). ``play.act`` writes them as the game goes (after its commit);
  positions without one (games older than snapshots, a snapshot that could
  not be read) get theirs when a replay passes them. A take-back deletes the
  snapshots after the new end. States are stored as JSON (``statecodec``),
  not pickles: reading a snapshot never runs code the row names.
- **The cache** (Django's cache, Redis in production): the latest state,
  under a key that changes when a move is taken back, and past positions
  (history), so a request usually replays nothing.

A snapshot or cache entry is trusted only if the move it ends with is still
in force (``last_number``): take-backs undo the latest move only, so that one
row proves the whole prefix unchanged, and the query that checks it is the
one that fetches the moves to play on. A snapshot that cannot be read back
(written by an older engine whose state has other fields, a changed codec,
a damaged row) is not an error: the position is replayed from the start and
the snapshots on the way are written anew. ``check_replays`` compares every
snapshot with a full replay.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError, transaction

from . import statecodec
from .models import Snapshot

logger = logging.getLogger(__name__)

CACHE_SECONDS = 60 * 60 * 24

# Within one turn that goes on and on (Tal: a player's many steps), a snapshot
# every so many moves still bounds the replay.
SNAPSHOT_EVERY = 16


def _cache_key(game) -> str:
    # The seed makes a key unique to this game even if ids are reused.
    return f"game-state:{game.pk}:{game.seed}:{game.rules_version}:{game.undo_count}"


def initial_state(game) -> Any:
    return game.engine.setup(game.players, game.options, game.seed)


def current_state(game, *, locked: bool = False) -> Any:
    """The state after every move in force (also those made since ``game`` was read).

    ``locked``: ``game`` was read under its row lock in this transaction, so
    its ``move_count`` is the log's and a cached state of that many moves
    needs no check (``play.act`` then makes no query here).
    """
    cached = cache.get(_cache_key(game))
    target = game.move_count if locked else None
    last_number, count, state = _position(game, target, cached, locked)
    if cached is None or cached[1] != count:
        store(game, last_number, count, state)
    return state


def state_as_read(game) -> Any:
    """The state after ``game.move_count`` moves: the position of the game's row as it
    was read, which a page draws (with that row's version in its links and its poll).

    A cached state of that many moves is that position without a look at the log:
    the cache key holds the take-back count, and while it stays the same the moves
    in force only grow. (``current_state`` reads the log for moves made since.)
    """
    cached = cache.get(_cache_key(game))
    if cached is not None and cached[1] == game.move_count:
        return cached[2]
    last_number, count, state = _position(game, game.move_count, cached)
    if cached is None or cached[1] < count:
        store(game, last_number, count, state)
    return state


def store(game, last_number: int, count: int, state: Any) -> None:
    cache.set(_cache_key(game), (last_number, count, state), CACHE_SECONDS)


def remember_token(game, seat: int, token: str) -> None:
    """The token of ``seat``'s view at the game's current version (games.pages.view_token),
    for the check of that seat's next click (``known_token``): a page just drew the
    view, the click need not build it again. The version names the position: every
    change bumps it."""
    cache.set(_token_key(game, seat), token, CACHE_SECONDS)


def known_token(game, seat: int) -> str | None:
    """The token remembered for ``seat`` at the game's current version, or None."""
    return cache.get(_token_key(game, seat))


def _token_key(game, seat: int) -> str:
    return f"{_cache_key(game)}:token:{game.version}.{game.secret_steps}:{seat}"


def state_at(game, count: int) -> Any:
    """The state after the first ``count`` moves in force (history, "since you
    last looked"). A past position never changes while the take-back count
    stays the same, so each one is rebuilt once and then read from the cache."""
    key = _position_key(game, count)
    state = cache.get(key)
    if state is None:
        state = _position(game, count)[2]
        cache.set(key, state, CACHE_SECONDS)
    return state


def keep_position(game, count: int, state: Any) -> None:
    """Keep ``state``, the state after ``count`` moves, for ``state_at``. A move keeps
    the position it left: the other players' next look compares with it ("since you
    last looked", "changed by the last move"), and would otherwise replay it."""
    cache.set(_position_key(game, count), state, CACHE_SECONDS)


def _position_key(game, count: int) -> str:
    return f"{_cache_key(game)}:at:{count}"


def rebuild(game) -> tuple[int, int, Any]:
    """(number of the last move, moves in force, state) now, from the snapshots
    and the log, ignoring the cache (take-backs)."""
    return _position(game, game.move_count)


def fresh_replay(game) -> Any:
    """Replay the whole log from the seed, ignoring cache and snapshots (checks)."""
    engine = game.engine
    state = initial_state(game)
    for seat, action in _moves(game).values_list("seat", "action")[: game.move_count]:
        state = engine.apply(state, seat, action)
    return state


# -- snapshots ------------------------------------------------------------------


def snapshot_due(engine, start: int, count: int, before: Any, after: Any) -> bool:
    """Whether the position after ``count`` moves gets a snapshot, reached from
    ``before`` (after ``start`` moves): when the turn changed hands on the way,
    or the moves passed a multiple of ``SNAPSHOT_EVERY``."""
    if count // SNAPSHOT_EVERY > start // SNAPSHOT_EVERY:
        return True
    return engine.active_seats(before) != engine.active_seats(after)


def save_snapshot(game, count: int, last_number: int, state: Any) -> None:
    _save(game, [(count, last_number, state)])


def forget_after(game, count: int) -> None:
    """A take-back: positions after ``count`` moves no longer exist."""
    Snapshot.objects.filter(game=game, move_count__gt=count).delete()


def load(game, snapshot: Snapshot) -> Any:
    """The state in ``snapshot`` (``statecodec.SnapshotError`` if it cannot be read)."""
    if snapshot.format != statecodec.FORMAT:
        raise statecodec.SnapshotError(f"written in format {snapshot.format}")
    return statecodec.loads(bytes(snapshot.state), _package(game.engine))


def _package(engine) -> str:
    # Snapshots may only name classes of the engine's own package.
    return type(engine).__module__.rpartition(".")[0]


def _save(game, rows: list[tuple[int, int, Any]]) -> None:
    if not rows:
        return
    try:
        snapshots = [
            Snapshot(
                game=game,
                move_count=count,
                last_number=last_number,
                format=statecodec.FORMAT,
                state=statecodec.dumps(state),
            )
            for count, last_number, state in rows
        ]
    except statecodec.SnapshotError as error:
        # An engine whose state the codec cannot hold still plays: by replay.
        logger.warning("no snapshots for game %s: %s", game.pk, error)
        return
    try:
        with transaction.atomic():
            # Overwrites what is there: a row met on the way may be one that
            # could not be read any more.
            Snapshot.objects.bulk_create(
                snapshots,
                update_conflicts=True,
                unique_fields=["game", "move_count"],
                update_fields=["last_number", "format", "state"],
            )
    except DatabaseError as error:  # derived data: the page can do without it
        logger.warning("could not store snapshots of game %s: %s", game.pk, error)


# -- rebuilding a position ------------------------------------------------------


def _moves(game):
    return game.moves.filter(undone=False).order_by("number")


def _position(game, target: int | None, cached=None, locked: bool = False) -> tuple[int, int, Any]:
    """(number of the last move, moves in force, state) at position ``target``
    (None: the latest): from ``cached`` if it still holds, else from the latest
    snapshot, else from the seed."""
    if cached is not None and (target is None or cached[1] <= target):
        if locked and cached[1] == target:
            return cached
        found = _play_on(game, cached, target, keep=False)
        if found is not None:
            return found
    snapshots = Snapshot.objects.filter(game=game, format=statecodec.FORMAT)
    if target is not None:
        snapshots = snapshots.filter(move_count__lte=target)
    snapshot = snapshots.order_by("-move_count").first()
    if snapshot is not None:
        try:
            base = (snapshot.last_number, snapshot.move_count, load(game, snapshot))
        except statecodec.SnapshotError as error:
            logger.warning(
                "snapshot %s of game %s unreadable, replaying: %s", snapshot, game.pk, error
            )
        else:
            try:
                found = _play_on(game, base, target, keep=True)
            except Exception:
                # A state that reads back but that the engine cannot play on (its
                # meaning changed without its fields): the replay below writes it anew.
                logger.exception("snapshot %s of game %s unusable, replaying", snapshot, game.pk)
            else:
                if found is not None:
                    return found
                # Its last move has been taken back since (a replay racing a take-back).
                snapshot.delete()
    return _play_on(game, (0, 0, initial_state(game)), target, keep=True)


def _play_on(game, base, target: int | None, keep: bool) -> tuple[int, int, Any] | None:
    """Play from ``base`` up to ``target`` moves; None if ``base`` no longer
    fits the log (its last move has been taken back). ``keep``: store the
    snapshots due on the way (none exist after ``base``)."""
    last_number, count, state = base
    rows = _moves(game).filter(number__gte=last_number).values_list("number", "seat", "action")
    if target is not None:
        rows = rows[: target - count + 1]
    rows = list(rows)
    if last_number:
        if not rows or rows[0][0] != last_number:
            return None
        rows = rows[1:]
    if target is not None:
        rows = rows[: target - count]
    engine = game.engine
    due = []
    for number, seat, action in rows:
        before = state
        state = engine.apply(state, seat, action)
        last_number, count = number, count + 1
        if keep and snapshot_due(engine, count - 1, count, before, state):
            due.append((count, last_number, state))
    _save(game, due)
    return last_number, count, state
