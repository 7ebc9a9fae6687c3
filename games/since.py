"""What changed for one player since they last looked, and what the last move changed.

Both are built from ``engine.view`` for the viewer only (the position they saw
then, replayed, against the position now), so a mark can never show what the
viewer may not know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import replay
from .models import Game, Seat


@dataclass
class Since:
    moves: int  # the moves in force when the viewer last looked
    before: dict[str, Any]  # the viewer's view of that position
    new_entries: int  # history entries added since


def mark_seen(game: Game, seat_id: int) -> None:
    """The player has taken in the position ``game`` is in now."""
    Seat.objects.filter(pk=seat_id).update(
        seen_version=game.version, seen_move_count=game.move_count
    )


def watched(game: Game, user, shown_version: int) -> None:
    """The player's open page, showing ``shown_version`` with nothing unseen, fetches
    the position ``game`` is in now while the player looks at it: they watch the moves
    arrive, so none of them is news on their next look (one conditional UPDATE)."""
    Seat.objects.filter(game=game, user=user, seen_version=shown_version).update(
        seen_version=game.version, seen_move_count=game.move_count
    )


def first_look(game: Game, user) -> None:
    """Start counting from a player's first visit (nothing is "new" before it)."""
    if user.is_authenticated:
        Seat.objects.filter(game=game, user=user, seen_version__isnull=True).update(
            seen_version=game.version, seen_move_count=game.move_count
        )


def since_last_look(game: Game, seat: Seat | None, view: dict[str, Any]) -> Since | None:
    """The changes since ``seat`` last looked, or None when there are none to show."""
    if seat is None or seat.seen_version is None or seat.seen_version == game.version:
        return None
    moves = min(seat.seen_move_count or 0, game.move_count)
    new_entries = sum(1 for e in view.get("log") or [] if e.get("move", 0) > moves)
    before = game.engine.view(replay.state_at(game, moves), seat.number)
    if not new_entries and _board_part(before) == _board_part(view):
        return None
    return Since(moves=moves, before=before, new_entries=new_entries)


def view_before_last_move(game: Game, at: int, viewer: int | None) -> dict[str, Any] | None:
    """The viewer's view one move before position ``at`` (None at the start)."""
    if at <= 0:
        return None
    return game.engine.view(replay.state_at(game, at - 1), viewer)


def _board_part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("log", "move_count", "actions", "prompt")}
