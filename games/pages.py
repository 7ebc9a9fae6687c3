"""Everything a game page shows, built from ``engine.view`` for one viewer."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from enginekit import IllegalAction

from . import replay
from .models import Game
from .since import Since, since_last_look, view_before_last_move


@dataclass
class BoardPage:
    game: Game
    view: dict[str, Any]
    viewer: int | None
    at: int
    history: bool
    player_names: dict[int, str]
    seats: list
    can_undo: bool = False
    error: str = ""
    notice: str = ""
    result: dict | None = None
    since: Since | None = None  # what changed since the viewer last looked
    before_last: dict[str, Any] | None = None  # the viewer's view before the move shown last
    takebacks: list = field(default_factory=list)
    token: str = ""  # what the viewer saw; forms send it back to detect stale clicks
    # New on every render: a retried click (cut connection) sends the same id again.
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def my_turn(self) -> bool:
        return bool(self.view.get("actions"))

    @property
    def result_box(self) -> bool:
        """Show the generic result, unless the board draws the engine's own summary."""
        if not self.result:
            return False
        return not (self.view.get("result") and self.game.kind_info.shows_result)

    @property
    def previous(self) -> int | None:
        return self.at - 1 if self.at > 0 else None

    @property
    def next(self) -> int | None:
        return self.at + 1 if self.history else None


def view_token(view: dict[str, Any]) -> str:
    """A fingerprint of one viewer's view of a position.

    A click is stale only if what its sender could see has changed since; the
    other seats' secret steps (plans written at the same time) do not count.
    ``move_count`` is left out because it changes with those secret steps too.
    """
    seen = {k: v for k, v in view.items() if k != "move_count"}
    blob = json.dumps(seen, sort_keys=True, separators=(",", ":"), default=str)
    return "v" + hashlib.sha256(blob.encode()).hexdigest()[:20]


def board_page(
    game: Game, user, at: int | None = None, error: str = "", notice: str = ""
) -> BoardPage:
    seats = list(game.seats.select_related("user").order_by("number"))
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    viewer = seat.number if seat is not None else None
    engine = game.engine
    history = at is not None and 0 <= at < game.move_count
    if history:
        state = replay.state_at(game, at)
    else:
        state = replay.current_state(game)
        at = game.move_count
    view = engine.view(state, viewer)
    token = view_token(view)
    if history or game.status != Game.Status.ACTIVE:
        # A past position or a finished game: nothing can be played from here.
        view = {**view, "actions": [], "prompt": None, "active_seats": []}
    last_seat = (
        game.moves.filter(undone=False).order_by("-number").values_list("seat", flat=True).first()
    )
    can_undo = bool(
        not history
        and game.status == Game.Status.ACTIVE
        and viewer is not None
        and last_seat == viewer
        and engine.can_undo(state, viewer)
    )
    return BoardPage(
        since=since_last_look(game, seat, view) if not history else None,
        before_last=view_before_last_move(game, at, viewer),
        takebacks=takebacks(game, viewer, {s.number: s.user.name for s in seats}),
        game=game,
        view=view,
        viewer=viewer,
        at=at,
        history=history,
        player_names={s.number: s.user.name for s in seats},
        seats=seats,
        can_undo=can_undo,
        error=error,
        notice=notice,
        result=game.result if game.status in (Game.Status.FINISHED, Game.Status.ABORTED) else None,
        token=token,
    )


TAKEBACKS_SHOWN = 3


def takebacks(game: Game, viewer: int | None, names: dict[int, str]) -> list[dict[str, Any]]:
    """The latest take-backs the viewer may know of: who took back an action and
    from which position, never what it was. A step the viewer could not see (a
    secret plan written at the same time) leaves no trace for them either."""
    if not game.undo_count:
        return []
    engine = game.engine
    shown = []
    undone = game.moves.filter(undone=True).order_by("-number")[:TAKEBACKS_SHOWN]
    for newer, move in enumerate(undone):
        # The moves in force before it, without counting the log: all rows below
        # it, less the taken-back ones (each take-back marks one row; ``newer`` of
        # them lie above this one).
        before = (move.number - 1) - (game.undo_count - 1 - newer)
        if move.seat != viewer:
            state = replay.state_at(game, before)
            seen_before = view_token(engine.view(state, viewer))
            try:
                after = engine.apply(state, move.seat, move.action)
            except IllegalAction:  # cannot be replayed any more: say nothing rather than guess
                continue
            if seen_before == view_token(engine.view(after, viewer)):
                continue
        shown.append({"name": names.get(move.seat, ""), "after": before, "me": move.seat == viewer})
    return shown
