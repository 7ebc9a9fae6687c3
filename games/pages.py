"""Everything a game page shows, built from ``engine.view`` for one viewer."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from . import replay
from .models import Game


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
