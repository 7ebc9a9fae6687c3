"""Premoves: actions a waiting player queues now for when their turn comes.

In a game that runs for weeks the waiting takes the time. A player whose turn has not
come may choose on the board what they will do when it does; the queue is played in the
transaction that hands them the turn (``play.act`` holds the game's row lock), so a
queued action and a late click can never both count.

**Choosing.** The board a waiting player plans on is the position their next turn
begins in if every player before them passes (``engine.pass_action``; forced moves as
the site makes them), with the actions already queued played on it: ``rehearse``. Its
legal actions are the ones offered. Planning ahead stops where getting there would
reveal hidden information or draw at random (``engine.reveals``): such a position
cannot be shown before it happens, and the real one is not known yet. A queued action
that itself reveals (handing in the last bid) ends what can be planned.

**Playing.** When the turn really comes, the queue is played only if every action in it
is legal then, one after the other (``legal_actions`` at that moment decides: "only if
nobody changed anything that matters meanwhile", in its simplest honest form); else it
is dropped whole, nothing of it counts, and the player is told why (on the page and by
mail, ``signals.premove_dropped``). A queue is played or dropped once.

**Simultaneous phases** (Tal's plans): every seat's turn begins at once; each queue is
played on its own, in seat order, each checked at that moment. A seat that has handed in
its part and waits for the others plans nothing past the reveal that ends the phase.

**Secrecy.** A queue is not a move until it is played: it is in no history, export,
admin list, log line or mail of anyone else; queuing changes neither the game's version
nor anything other players' pages or polls read. Its owner's page reads it (the page's
key covers it: ``premove_key_sql``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from enginekit import N_, IllegalAction, Message, msg

from . import signals
from .models import Game, Move, Premove, Seat

# A turn is far fewer atomic actions (a King of Siam card: five, a Tal build: a dozen).
MAX_QUEUED = 40
# Passes of the players before the planner, at most, to reach their turn.
MAX_PASSES = 200


def supported(engine) -> bool:
    """Whether the title can show a waiting player the position of their next turn."""
    return hasattr(engine, "pass_action") and hasattr(engine, "reveals")


@dataclass
class Rehearsal:
    """The position a waiting seat's next turn begins in, with its queue played on it.

    ``view``: the seat's view of it (its ``actions`` are what may be queued next); None
    when planning ahead is not possible now, and ``problem`` says why. ``stale``: the
    queued actions do not all fit this position (``problem`` says which does not).
    ``closed``: the queue ends the turn, or reaches something that is revealed only
    when it happens: nothing more can be queued after it.
    """

    view: dict[str, Any] | None = None
    problem: Message | None = None
    stale: bool = False
    closed: bool = False


def _turn_start(engine, state: Any, seat: int) -> tuple[Any, Message | None]:
    """The state ``seat``'s next turn begins in if the players before it pass."""
    forced_action = getattr(engine, "forced_action", None)
    for _step in range(MAX_PASSES):
        if engine.result(state) is not None:
            return None, msg(N_("The game would end before your next turn."))
        active = engine.active_seats(state)
        if seat in active:
            return state, None
        forced = forced_action(state) if forced_action is not None else None
        if forced is not None:
            mover, action = forced
        else:
            mover = min(active)
            action = engine.pass_action(state, mover)
            if action is None:
                return None, msg(
                    N_("You can plan your next turn once {player} has made their choice."),
                    player=mover,
                )
        try:
            after = engine.apply(state, mover, action)
        except IllegalAction:
            return None, msg(N_("Your next turn cannot be foreseen from this position."))
        if engine.reveals(state, after):
            return None, msg(
                N_(
                    "Before your next turn something is revealed or drawn at random: "
                    "plan it once that has happened."
                )
            )
        state = after
    return None, msg(N_("Your next turn cannot be foreseen from this position."))


def why_not_yet(engine, state: Any, seat: int) -> Message | None:
    """Why ``seat``, waiting for its turn, cannot plan it from this position (another
    player is in the middle of a choice, a draw comes first, ...), or None if it can."""
    return _turn_start(engine, state, seat)[1]


def rehearse(engine, state: Any, seat: int, queued: list[Any]) -> Rehearsal:
    """``seat``'s next turn as it begins if the players before it pass, with the
    ``queued`` actions played on it (see the module docstring)."""
    if not supported(engine):
        return Rehearsal(problem=msg(N_("This game does not offer planning ahead.")))
    if seat in engine.active_seats(state):
        return Rehearsal(problem=msg(N_("It is your turn: make your move on the board.")))
    start, problem = _turn_start(engine, state, seat)
    if problem is not None:
        return Rehearsal(problem=problem)
    current = start
    for action in queued:
        if seat not in engine.active_seats(current):
            return Rehearsal(problem=msg(N_("Your turn ends before this action.")), stale=True)
        try:
            after = engine.apply(current, seat, action)
        except IllegalAction as error:
            return Rehearsal(problem=error.message, stale=True)
        if engine.reveals(current, after):
            # The position after it is shown only when it happens: the planner sees the
            # one before, with nothing more to queue.
            return Rehearsal(view=_closed(engine.view(current, seat)), closed=True)
        current = after
    view = engine.view(current, seat)
    closed = seat not in engine.active_seats(current) or len(queued) >= MAX_QUEUED
    if closed:
        view = _closed(view)
    return Rehearsal(view=view, closed=closed)


def _closed(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "actions": [], "prompt": None}


def queue_of(game: Game, user) -> Premove | None:
    """``user``'s queue in ``game`` (theirs alone to read)."""
    if not user.is_authenticated:
        return None
    return Premove.objects.filter(game=game, user=user).first()


def queued_actions(premove: Premove | None) -> list[Any]:
    if premove is None or premove.dropped is not None:
        return []
    return [item["action"] for item in premove.actions]


# -- the hand-over -------------------------------------------------------------------

Forced = Callable[[Game, Any, int], tuple[Any, int]]


def play_due(
    game: Game, before: frozenset[int], state: Any, number: int, seats: list[Seat], forced: Forced
) -> tuple[Any, int]:
    """Play the queues of the seats whose turn has begun since ``before`` (the seats to
    move before the change), in the locked ``game``; the state and the number of the
    last move after them. Each queue counts whole or not at all; a seat whose queue
    hands the turn on may begin another's, which is played in turn. ``forced``: how
    the site makes the moves the rules leave no choice about (``play``).

    One query when a turn began (none when it did not), more only for queues found.
    """
    engine = game.engine
    if not supported(engine):
        return state, number
    began = set(engine.active_seats(state)) - set(before)
    if not began:
        return state, number
    holders = {seat.number: seat.user for seat in seats}
    pending = {row.seat: row for row in Premove.objects.filter(game=game, seat__in=began)}
    tried: set[int] = set()
    while pending:
        active = engine.active_seats(state)
        number_now = min((n for n in pending if n in active), default=None)
        if number_now is None:
            break
        row = pending.pop(number_now)
        tried.add(number_now)
        holder = holders.get(row.seat)
        if row.dropped is not None or not row.actions or getattr(holder, "pk", None) != row.user_id:
            # Left from an earlier turn, or the seat changed hands: not this turn's plan.
            row.delete()
            continue
        played, problem = _attempt(engine, state, row.seat, [i["action"] for i in row.actions])
        if played is None:
            row.dropped = problem
            row.save(update_fields=["dropped", "updated_at"])
            signals.premove_dropped.send(sender=Game, game=game, seat=row.seat, user=holder)
            continue
        for action in row.actions:
            number += 1
            Move.objects.create(game=game, number=number, seat=row.seat, action=action["action"])
        game.move_count += len(row.actions)
        game.last_move_at = timezone.now()
        row.delete()
        state, number = forced(game, played, number)
        newly = set(engine.active_seats(state)) - set(active) - tried - set(pending)
        if newly:
            pending.update({r.seat: r for r in Premove.objects.filter(game=game, seat__in=newly)})
    return state, number


def _attempt(engine, state: Any, seat: int, actions: list[Any]) -> tuple[Any, Message | None]:
    """The state after ``actions`` by ``seat``, or None and the reason one of them is
    not legal now (then none of them counts)."""
    for action in actions:
        if seat not in engine.active_seats(state):
            return None, msg(N_("Your turn would have ended before all of them were played."))
        try:
            state = engine.apply(state, seat, action)
        except IllegalAction as error:
            return None, error.message
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return None, msg(N_("This action is not possible now."))
    return state, None


def premove_key_sql() -> str:
    """The viewer's queue in the page's key (``games.extend.add_key_part``): its row
    changes (``updated_at``) or goes whenever what the page shows of it would."""
    table = Premove._meta.db_table
    return f"(SELECT MAX(updated_at) FROM {table} WHERE game_id = %(game)s AND user_id = %(user)s)"
