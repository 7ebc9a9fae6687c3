"""Everything a game page shows, built from ``engine.view`` for one viewer."""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from enginekit import IllegalAction

from . import facts, premoves, replay
from .models import Game, Move, Premove
from .numbering import Numbering, numbering
from .rows import planned_cursor, read_seats
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
    # Why the viewer cannot plan their next turn from this position yet (games.premoves).
    plan_problem: Any = None
    token: str = ""  # what the viewer saw; forms send it back to detect stale clicks
    stood_in: bool = False  # a computer player holds the viewer's seat: they may take it back
    # The site ended the game before its rules did (a resignation, a time-out, a
    # cancellation): the position shown is mid-game, but nothing in it goes on. Each
    # board decides what that hides (a struggle "now", plans being written).
    cut_short: bool = False
    # New on every render: a retried click (cut connection) sends the same id again.
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    # What each cached part drew (games.fragments), for the poller to send back.
    fragment_digests: dict[str, str] = field(default_factory=dict)
    # What the feature apps' parts (games.extend) worked out once for this page.
    memo: dict[str, Any] = field(default_factory=dict)
    user_id: int | None = None  # who the page is drawn for (None: signed out)
    # The viewer's move numbers (games.numbering): ``at``, ``since`` and the log's are
    # theirs, without the others' secret steps.
    numbers: Numbering = field(default_factory=Numbering)

    # Both are drawn only inside the cached fragments (games.fragments): worked
    # out when a fragment is rendered, never for one served from the cache.
    @functools.cached_property
    def before_last(self) -> dict[str, Any] | None:
        """The viewer's view before the move shown last."""
        if self.at <= 0:
            return None
        return view_before_last_move(self.game, self.numbers.position(self.at - 1) + 1, self.viewer)

    @functools.cached_property
    def takebacks(self) -> list[dict[str, Any]]:
        found = takebacks(self.game, self.viewer, self.player_names)
        return [{**entry, "after": self.numbers.shown(entry["after"])} for entry in found]

    @property
    def my_turn(self) -> bool:
        return bool(self.view.get("actions"))

    @property
    def plans(self) -> bool:
        """The viewer is a player of a running game shown at its latest position, in a
        title that offers planning ahead (``games.premoves``)."""
        engine = self.game.engine
        return bool(
            self.viewer is not None
            and not self.history
            and self.game.status == Game.Status.ACTIVE
            and hasattr(engine, "pass_action")
            and hasattr(engine, "reveals")
        )

    @property
    def may_plan(self) -> bool:
        """The viewer may queue actions for their next turn: it is not their turn."""
        return self.plans and self.viewer not in (self.view.get("active_seats") or [])

    @functools.cached_property
    def premove(self) -> Premove | None:
        """The viewer's queue for their next turn, or the notice that it was dropped:
        theirs alone to read (read only where a part of the page asks for it)."""
        if self.viewer is None or self.history or self.game.status != Game.Status.ACTIVE:
            return None
        if facts.of_page(self, "games.premove") is None:
            return None  # no queue: known from the page's facts, without a query
        user_id = next((s.user_id for s in self.seats if s.number == self.viewer), None)
        return Premove.objects.filter(game=self.game, user_id=user_id).first()

    @property
    def result_box(self) -> bool:
        """Show the generic result, unless the board draws the engine's own summary."""
        if not self.result:
            return False
        return not (self.view.get("result") and self.game.kind_info.shows_result)

    @property
    def places(self) -> list[tuple[int, int]]:
        """(place, seat) down the result's ranking. Every winner is first (a resignation
        in a three-player game leaves two), the others count on from there: 1, 1, 3."""
        if not self.result:
            return []
        winners = set(self.result.get("winners") or [])
        ranking = self.result.get("ranking") or []
        return [(1 if seat in winners else index + 1, seat) for index, seat in enumerate(ranking)]

    @property
    def movers(self) -> list[str]:
        """The names of the players to move."""
        return [seat.user.name for seat in self.seats if seat.to_move]

    @property
    def computer_seats(self) -> set[int]:
        """Seat numbers held by computer players (marked wherever names are listed)."""
        return {seat.number for seat in self.seats if seat.user.is_bot}

    @property
    def open_seats(self) -> list[int]:
        """``Game.open_seats`` from the seats read for the page (no query)."""
        if self.game.status != Game.Status.ACTIVE:
            return []
        return self.game.open_among(seat.number for seat in self.seats)

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
    blob = _TOKEN_JSON.encode(seen)
    return "v" + hashlib.sha256(blob.encode()).hexdigest()[:20]


# Built once; a view is plain data from the engine, a tree without cycles, so the
# encoder need not track every container it enters (that halved the cost of a Tal
# view of 30 KB: 1.4 -> 0.8 ms). The text is the same as json.dumps gave.
_TOKEN_JSON = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), default=str, check_circular=False
)


@functools.cache
def _last_seat_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = Move._meta
    game, undone, number, seat = (
        quote(meta.get_field(name).column) for name in ("game", "undone", "number", "seat")
    )
    return (
        f"SELECT {seat} FROM {quote(meta.db_table)} WHERE {game} = %s AND {undone} = %s"
        f" ORDER BY {number} DESC LIMIT 1"
    )


def _last_seat(game: Game) -> int | None:
    """Who made the last move in force: ``game.moves.filter(undone=False)`` by number,
    in SQL built once (compiling the ORM query cost more than running it)."""
    with planned_cursor() as cursor:
        cursor.execute(_last_seat_sql(connection.vendor), [game.pk, False])
        row = cursor.fetchone()
    return row[0] if row else None


def board_page(
    game: Game,
    user,
    at: int | None = None,
    error: str = "",
    notice: str = "",
    state: Any = None,
) -> BoardPage:
    """``state``: the game's latest state, when the caller has it at hand (the
    answer to a move); it must be the state after ``game.move_count`` moves."""
    seats = read_seats(game)
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    viewer = seat.number if seat is not None else None
    engine = game.engine
    numbers = numbering(game, viewer)
    if at is not None:
        at = numbers.position(at)  # ``at`` counts the moves the viewer sees
    history = at is not None and 0 <= at < game.move_count
    if history:
        state = replay.state_at(game, at)
    else:
        if state is None:
            state = replay.state_as_read(game)
        at = game.move_count
    view = engine.view(state, viewer)
    token = view_token(view)
    if not history and viewer is not None:
        replay.remember_token(game, viewer, token)
    if history or game.status != Game.Status.ACTIVE:
        # A past position or a finished game: nothing can be played from here.
        view = {**view, "actions": [], "prompt": None, "active_seats": []}
    # The log is asked last, only when the engine would allow a take-back.
    can_undo = bool(
        not history
        and game.status == Game.Status.ACTIVE
        and viewer is not None
        and engine.can_undo(state, viewer)
        and _last_seat(game) == viewer
    )
    since = since_last_look(game, seat, view) if not history else None
    if since is not None:
        since = Since(numbers.shown(since.moves), since.before, since.new_entries)
    page = BoardPage(
        since=since,
        game=game,
        view=numbers.view(view),
        viewer=viewer,
        at=numbers.shown(at),
        numbers=numbers,
        history=history,
        player_names={s.number: s.user.name for s in seats},
        seats=seats,
        user_id=user.pk if user.is_authenticated else None,
        can_undo=can_undo,
        error=error,
        notice=notice,
        result=game.result if game.status in (Game.Status.FINISHED, Game.Status.ABORTED) else None,
        token=token,
        stood_in=bool(
            user.is_authenticated
            and game.status == Game.Status.ACTIVE
            and any(s.stood_in_for_id == user.pk for s in seats)
        ),
        cut_short=bool(
            not history and game.status != Game.Status.ACTIVE and engine.result(state) is None
        ),
    )
    if page.may_plan:
        page.plan_problem = premoves.why_not_yet(engine, state, viewer)
    return page


TAKEBACKS_SHOWN = 3


def takebacks(game: Game, viewer: int | None, names: dict[int, str]) -> list[dict[str, Any]]:
    """The latest take-backs the viewer may know of: who took back an action and
    from which position, never what it was. A step the viewer could not see (a
    secret plan written at the same time) leaves no trace for them either. A turn
    taken back by agreement (``games.takeback``) is one entry, which everyone knows of."""
    if not game.undo_count:
        return []
    engine = game.engine
    agreed = list(game.turn_takebacks.order_by("-last"))
    undone = game.moves.filter(undone=True).order_by("-number")
    for turn in agreed:
        undone = undone.exclude(number__range=(turn.first, turn.last))
    shown = [
        {"name": names.get(t.seat, ""), "after": t.after, "me": t.seat == viewer, "turn": True,
         "number": t.last}
        for t in agreed[:TAKEBACKS_SHOWN]
    ]  # fmt: skip
    for newer, move in enumerate(undone[:TAKEBACKS_SHOWN]):
        # The moves in force before it, without counting the log: all rows below
        # it, less the taken-back ones (the undone rows above it: ``newer`` single
        # ones and those of the turns taken back after it).
        above = newer + sum(t.moves for t in agreed if t.last > move.number)
        before = (move.number - 1) - (game.undo_count - 1 - above)
        if move.seat != viewer:
            state = replay.state_at(game, before)
            seen_before = view_token(engine.view(state, viewer))
            try:
                after = engine.apply(state, move.seat, move.action)
            except IllegalAction:  # cannot be replayed any more: say nothing rather than guess
                continue
            if seen_before == view_token(engine.view(after, viewer)):
                continue
        shown.append(
            {
                "name": names.get(move.seat, ""),
                "after": before,
                "me": move.seat == viewer,
                "turn": False,
                "number": move.number,
            }
        )
    shown.sort(key=lambda entry: -entry["number"])
    return shown[:TAKEBACKS_SHOWN]


CHAT_ON_PAGE = 20


def chat_window(lines, everything: bool = False) -> tuple[list, bool]:
    """The chat lines a page shows, oldest first, and whether earlier ones were left
    out: the latest ``CHAT_ON_PAGE`` (a long game's chat must not make every page
    and refresh heavier), or all of them."""
    if everything:
        return list(lines), False
    latest = list(lines.order_by("-created_at", "-pk")[: CHAT_ON_PAGE + 1])
    return latest[:CHAT_ON_PAGE][::-1], len(latest) > CHAT_ON_PAGE
