"""The move numbers a viewer reads, without the others' secret steps.

Inside the site a position is the count of moves in force (``Game.move_count``,
``?at=`` of the history, a log entry's ``move``). A secret step (``engine.secret``: a
plan click in Tal der Könige) is a move too, but only its player sees it: counted in
the numbers everyone else reads, it would tell them how many clicks the planner made.
So each viewer reads numbers that skip the secret steps of the other seats (a
spectator's skip them all): ``shown`` turns a position into the viewer's number and
``position`` turns the viewer's number back into a position, the latest one they see
as that number (the steps they cannot see change nothing of their view).

Games of a title without secret steps, and viewers who have none to skip, get the
positions themselves, without a query.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count

from .models import Game, Move
from .rows import planned_cursor


@dataclass(frozen=True)
class Numbering:
    hidden: tuple[int, ...] = ()  # positions reached by a step the viewer cannot see
    last: int = 0  # the moves in force

    def shown(self, position: int) -> int:
        return position - bisect.bisect_right(self.hidden, position)

    def position(self, shown: int) -> int:
        """The latest position the viewer reads as ``shown``: the one before the next
        step they see (or the present)."""
        following = shown + 1  # the (shown + 1)-th step they see, as a position
        for hidden in self.hidden:
            if hidden <= following:
                following += 1
            else:
                break
        return min(following - 1, self.last)

    def positions(self) -> list[int]:
        """``position(n)`` for every ``n`` the viewer reads, 0 to ``total``, in one pass
        (a chart of the whole game asks for each: one walk each grew with the square of
        the game's length)."""
        latest = [0] * (self.total + 1)
        before = 0  # hidden positions up to the one looked at
        for position in range(self.last + 1):
            while before < len(self.hidden) and self.hidden[before] <= position:
                before += 1
            latest[position - before] = position
        return latest

    @property
    def total(self) -> int:
        return self.shown(self.last)

    def view(self, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` with the viewer's numbers in its log (a copy: views are shared)."""
        if not self.hidden:
            return view
        log = [{**e, "move": self.shown(e["move"])} if "move" in e else e for e in view["log"]]
        renumbered = {**view, "log": log}
        if "move_count" in view:
            renumbered["move_count"] = self.total
        return renumbered


def numbering(game: Game, viewer: int | None) -> Numbering:
    """The numbers ``viewer`` (a seat, or None for a spectator) reads in ``game``."""
    if not hasattr(game.engine, "secret"):
        return Numbering(last=game.move_count)
    with planned_cursor() as cursor:
        cursor.execute(_steps_sql(connection.vendor), [game.pk, True, True])
        rows = cursor.fetchall()
    hidden, undone = [], 0
    for number, seat, undone_row in rows:
        if undone_row:
            undone += 1
        elif seat != viewer:
            hidden.append(number - undone)  # its position: the moves in force up to it
    return Numbering(tuple(hidden), game.move_count)


@functools.cache
def _steps_sql(vendor: str) -> str:
    """The secret steps in force and the rows taken back, in order: ``game.moves.filter(
    secret=True, undone=False) | game.moves.filter(undone=True)`` in SQL built once (every
    page and board answer of a title with secret steps asks; compiling the ORM's union
    cost several times more than running it)."""
    quote = connection.ops.quote_name
    meta = Move._meta
    game, number, seat, undone, secret = (
        quote(meta.get_field(name).column)
        for name in ("game", "number", "seat", "undone", "secret")
    )
    return (
        f"SELECT {number}, {seat}, {undone} FROM {quote(meta.db_table)}"
        f" WHERE {game} = %s AND ({undone} = %s OR {secret} = %s) ORDER BY {number}"
    )


def line_names(log: list[dict[str, Any]]) -> list[str]:
    """Each history line's name: its move number, with a letter where one move wrote
    several lines ("12a", "12b": a card and the swap it made, a pass and the takeover it
    ended), so that every line can be named; "" before the first move (set-up lines are
    named by their letter alone). ``log`` is the viewer's own, renumbered (``view``): the
    lines of another seat's secret step are never in it, so the letters count only what
    the viewer reads and tell nothing of how many such steps were made."""
    lines_of: dict[int, int] = {}
    for entry in log:
        move = entry.get("move", 0)
        lines_of[move] = lines_of.get(move, 0) + 1
    names, seen = [], dict.fromkeys(lines_of, 0)
    for entry in log:
        move = entry.get("move", 0)
        letter = _letter(seen[move]) if lines_of[move] > 1 else ""
        seen[move] += 1
        names.append(f"{move}{letter}" if move else letter)
    return names


def _letter(index: int) -> str:
    """a, b, ..., z, aa, ab, ...: the ``index``-th line of one move."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def public_move_count(game: Game) -> int:
    """The moves in force that every viewer sees (an API client's count)."""
    return public_move_counts([game])[game.pk]


def public_move_counts(games: list[Game]) -> dict[int, int]:
    """``public_move_count`` of each of ``games`` by id, in one query for a whole list
    (none where no game's title has secret steps or no game has moves): the moves in
    force less the secret steps in force, which a spectator's numbers skip."""
    counts = {game.pk: game.move_count for game in games}
    secretive = [game.pk for game in games if game.move_count and hasattr(game.engine, "secret")]
    if secretive:
        rows = (
            Move.objects.filter(game_id__in=secretive, secret=True, undone=False)
            .values("game_id")
            .annotate(steps=Count("pk"))
            .values_list("game_id", "steps")
        )
        for game_id, steps in rows:
            counts[game_id] -= steps
    return counts
