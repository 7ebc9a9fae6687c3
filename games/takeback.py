"""Taking back a whole turn after it was handed over, as every player agreed.

``play.undo`` takes back a player's last action while their turn goes on; the engines
refuse it across a hand-over, a random draw or a reveal of hidden information
(``engine.can_undo``). Here the players have agreed (a feature app asks them), so the
hand-over may be crossed, never the other two: ``engine.reveals`` says, action by
action, whether one drew or revealed. A turn is the run of the player's own moves at the
end of the log, with the moves the rules forced on others after it (a pass without
cards): nobody else may have chosen anything since.

The take-back is a replay without those moves: they stay in the log, marked undone (the
log is append-only), the snapshots after the new end go, and a ``TurnTakeBack`` row
records the event for the history. ``check_replays`` holds as for any take-back: the
log has ``move_count + undo_count`` rows, and the moves in force replay to the state.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext as _

from enginekit import IllegalAction

from . import replay, since
from .models import Game, Move, Premove, TurnTakeBack
from .play import PlayError, _after_change
from .rows import column_converter, planned_cursor

# No turn is longer (a Tal build or plan: a dozen actions); a guard on what is read.
MAX_TURN = 100


@dataclass(frozen=True)
class Turn:
    """The last turn of ``seat``: moves ``first`` to ``last`` (the log's end), ``moves``
    of them in force (forced moves of others after it included)."""

    seat: int
    first: int
    last: int
    moves: int


def supported(engine) -> bool:
    return hasattr(engine, "reveals")


@functools.cache
def _latest_moves_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = Move._meta
    game, undone, number, seat, action = (
        quote(meta.get_field(name).column)
        for name in ("game", "undone", "number", "seat", "action")
    )
    return (
        f"SELECT {number}, {seat}, {action} FROM {quote(meta.db_table)}"
        f" WHERE {game} = %s AND {undone} = %s ORDER BY {number} DESC LIMIT {MAX_TURN + 1}"
    )


def _latest_moves(game: Game) -> list[tuple[int, int, Any]]:
    """(number, seat, action as stored) of the last ``MAX_TURN + 1`` moves in force, newest
    first: ``game.moves.filter(undone=False)`` in SQL built once (the take-back offer asks
    on every page of a player whose turn is over; compiling the ORM query cost more than
    running it), the actions left undecoded (only the turn's are read)."""
    with planned_cursor() as cursor:
        cursor.execute(_latest_moves_sql(connection.vendor), [game.pk, False])
        return cursor.fetchall()


def last_turn(game: Game, seat: int, state: Any = None) -> Turn:
    """``seat``'s last turn, if it may be taken back by agreement; else PlayError saying
    why. ``state``: the game's current state, when the caller has it (a page: the state
    it drew, after ``game.move_count`` moves)."""
    engine = game.engine
    if not supported(engine):
        raise PlayError(_("This game does not allow taking back a turn by agreement."), 409)
    rows = _latest_moves(game)
    span = 0
    while span < len(rows) and rows[span][1] != seat:
        span += 1  # moves of others after the turn: each must turn out to be forced
    others = span
    while span < len(rows) and rows[span][1] == seat:
        span += 1
    if span == others:
        raise PlayError(
            _("You did not make the last move: there is no turn of yours to take back.")
        )
    if span > MAX_TURN:
        raise PlayError(_("This turn is too long to be taken back."))
    if state is None:
        state = replay.current_state(game)
    if not others and seat in engine.active_seats(state):
        raise PlayError(_("Your turn goes on: take back your own actions with “Take back”."))
    action_of = column_converter(Move, "action")
    moves = [(number, mover, action_of(action)) for number, mover, action in reversed(rows[:span])]
    position = replay.state_at(game, game.move_count - span)
    forced_action = getattr(engine, "forced_action", None)
    for _number, mover, action in moves:
        if mover != seat:
            forced = forced_action(position) if forced_action is not None else None
            if forced is None or forced[0] != mover or forced[1] != action:
                raise PlayError(_("Another player has moved since your turn."))
        try:
            after = engine.apply(position, mover, action)
        except IllegalAction:
            # ``game`` was read before a move the log has already (a page, not a locked
            # operation): the turn is not the last one any more.
            raise PlayError(
                _("The game moved on: the turn can no longer be taken back."), 409
            ) from None
        if engine.reveals(position, after):
            raise PlayError(
                _(
                    "Your turn revealed hidden information or drew at random: "
                    "it cannot be taken back."
                )
            )
        position = after
    return Turn(seat=seat, first=moves[0][0], last=moves[-1][0], moves=span)


def take_back(game: Game, turn: Turn) -> None:
    """Take back ``turn`` in the locked, running ``game`` (every player agreed; the
    caller checked it is still the last turn, ``last_turn``)."""
    undone = game.moves.filter(undone=False, number__gte=turn.first).update(undone=True)
    if undone != turn.moves:
        raise PlayError(_("The game moved on: the turn can no longer be taken back."), 409)
    game.move_count -= undone
    game.undo_count += undone
    game.version += 1
    replay.forget_after(game, game.move_count)
    # The player's queue was for the turn after this one, which is theirs again now:
    # a queue is only ever played at the beginning of a turn (games.premoves).
    Premove.objects.filter(game=game, seat=turn.seat).delete()
    TurnTakeBack.objects.create(
        game=game,
        seat=turn.seat,
        first=turn.first,
        last=turn.last,
        moves=undone,
        after=game.move_count,
    )
    number, count, state = replay.rebuild(game)
    # The player who was to move meanwhile finished no turn: their bank stands, no increment.
    _after_change(game, state, credit=False)
    seat = game.seats.filter(number=turn.seat).first()
    if seat is not None:
        since.mark_seen(game, seat.pk)
    transaction.on_commit(lambda: replay.store(game, number, count, state))
