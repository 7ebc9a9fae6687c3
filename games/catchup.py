""" "Since your last turn": the others' moves one at a time on the board.

A player back from a mail (or from the "since you last looked" notice) steps from the
position after their own last move to the present, one step per move they could see
happen: the positions where their own history (``engine.view(state, seat)``'s log)
gained an entry. Each step is the past position ``?at=N`` the history buttons show,
drawn from that seat's view of it, so a step shows only what that player may know; a
move they could not see (another seat's secret plan) is no step of its own.

The page carries ``?since=S`` (the moves in force after the player's last own move)
beside ``?at=N``; without ``at`` it is the last step, the present. Both count in the
player's own numbers (``games.numbering``): without the others' secret steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import replay
from .models import Game
from .numbering import Numbering, numbering


@dataclass
class Catchup:
    since: int  # the moves in force after the viewer's last own move
    steps: list[int]  # the positions to show, the present last
    at: int  # the position the page shows
    entries: list[dict[str, Any]]  # what happened in the step shown (the viewer's log)
    total: int = 0  # the present, in the viewer's numbers

    @property
    def number(self) -> int:
        """The step shown, counted from 1 (0: the position before the first)."""
        return self.steps.index(self.at) + 1 if self.at in self.steps else 0

    @property
    def previous(self) -> int | None:
        earlier = [step for step in self.steps if step < self.at]
        if earlier:
            return earlier[-1]
        return self.since if self.at > self.since else None

    @property
    def next(self) -> int | None:
        later = [step for step in self.steps if step > self.at]
        return later[0] if later else None

    @property
    def is_present(self) -> bool:
        return not self.steps or self.at >= self.steps[-1]


def moves_before_turn(game: Game, seat: int, move_count: int | None = None) -> int:
    """The moves in force up to and including ``seat``'s last own move among the first
    ``move_count`` (all of them when None); 0 if it has not moved yet."""
    moves = game.moves.filter(undone=False)
    if move_count is not None:
        cut = _number_of(moves, move_count)
        moves_up_to = moves.filter(number__lte=cut)
    else:
        moves_up_to = moves
    last_number = (
        moves_up_to.filter(seat=seat).order_by("-number").values_list("number", flat=True).first()
    )
    # Log entries carry the count of moves in force when they were written.
    return moves.filter(number__lte=last_number).count() if last_number else 0


def _number_of(moves, count: int) -> int:
    """The number of the ``count``-th move in force (numbers skip undone moves)."""
    if count <= 0:
        return 0
    return moves.order_by("number").values_list("number", flat=True)[count - 1 : count].first() or 0


def steps_since(game: Game, seat: int, since: int, numbers: Numbering | None = None) -> list[int]:
    """The positions after ``since`` where ``seat``'s history gained an entry, from its
    view of the present; the present itself is the last step. All in the seat's own
    numbers (``numbers``, games.numbering: without the others' secret steps)."""
    numbers = numbers or numbering(game, seat)
    view = numbers.view(game.engine.view(replay.state_as_read(game), seat))
    log = view.get("log") or []
    steps = sorted({e["move"] for e in log if isinstance(e.get("move"), int) and e["move"] > since})
    steps = [step for step in steps if step <= numbers.total]
    if not steps or steps[-1] != numbers.total:
        steps.append(numbers.total)
    return steps


def read_since(value, game: Game) -> int | None:
    """``?since`` as a position of this game (in the viewer's numbers), or None."""
    try:
        since = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return since if 0 <= since <= game.move_count else None


def catchup(
    game: Game, seat: int | None, since_param, at: int, view: dict, numbers: Numbering
) -> Catchup | None:
    """The replay bar of a page showing position ``at`` to ``seat`` (``view``: its view
    of that position; ``numbers``: the seat's numbers, which ``at`` and ``view`` use),
    or None when the page is no replay."""
    if seat is None or since_param is None:
        return None
    since = read_since(since_param, game)
    if since is None or at < since or since >= numbers.total:
        return None  # not a position of this game, or nothing happened since
    entries = [e for e in view.get("log") or [] if e.get("move") == at and at > since]
    steps = steps_since(game, seat, since, numbers)
    return Catchup(since=since, steps=steps, at=at, entries=entries, total=numbers.total)
