"""A waiting player's queue for their next turn (``games.premoves``): the operations on
it, each in a transaction holding the game's row lock (so that queuing and the hand-over
that plays the queue happen one after the other), and the planning board.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from . import premoves, replay, text
from .models import Game, Premove
from .pages import BoardPage, view_token
from .play import PlayError, StaleMove, locked, running_seat


def _waiting_seat(game: Game, user):
    seat = running_seat(game, user)
    if not premoves.supported(game.engine):
        raise PlayError(_("This game does not offer planning ahead."), 409)
    return seat


def queue(game_id: int, user, action: Any, seen: str | None) -> Premove:
    """Add ``action`` to ``user``'s queue for their next turn.

    ``seen``: the token of the planning board the click came from (``Plan.page.token``);
    one drawn before the position or the queue changed is refused, as a stale move is.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise PlayError(_("An action must be an object with a type."))
    with transaction.atomic():
        game = locked(game_id)
        seat = _waiting_seat(game, user)
        state = replay.current_state(game, locked=True)
        premove = Premove.objects.filter(game=game, user=user).first()
        if premove is not None and (premove.dropped is not None or premove.seat != seat.number):
            premove.actions, premove.dropped, premove.seat = [], None, seat.number
        rehearsal = premoves.rehearse(
            game.engine, state, seat.number, premoves.queued_actions(premove)
        )
        if rehearsal.view is None or rehearsal.stale:
            names = {s.number: s.user.name for s in game.seats.select_related("user")}
            raise PlayError(text.render(rehearsal.problem, names), 409)
        if seen is not None and seen != view_token(rehearsal.view):
            raise StaleMove()
        if rehearsal.closed:
            raise PlayError(_("Nothing more can be queued after these actions."), 409)
        label = next((a["label"] for a in rehearsal.view["actions"] if a["action"] == action), None)
        if label is None:
            raise PlayError(_("This action would not be possible then."))
        if premove is None:
            premove = Premove(game=game, user=user, seat=seat.number)
        premove.actions = [*premove.actions, {"action": action, "label": label}]
        premove.save()
    return premove


def clear(game_id: int, user) -> bool:
    """Forget ``user``'s queue (or the notice that it was dropped)."""
    with transaction.atomic():
        game = locked(game_id)
        if game.seat_of(user) is None:
            raise PlayError(_("You are not playing in this game."), 403)
        return Premove.objects.filter(game=game, user=user).delete()[0] > 0


@dataclass
class Plan:
    """What the planning board shows: the rehearsal of the viewer's next turn
    (``premoves.Rehearsal``), the page its board is drawn on (its view and token), why
    nothing can be planned now, if so, and the queue's labels."""

    page: BoardPage | None
    problem: str
    stale: bool
    closed: bool
    queued: list[str]


def plan_for(page: BoardPage, user) -> Plan:
    """The planning board of ``page``'s viewer (a seat of a running game)."""
    game = page.game
    premove = page.premove
    queued = premoves.queued_actions(premove)
    state = replay.state_as_read(game)
    rehearsal = premoves.rehearse(game.engine, state, page.viewer, queued)
    problem = text.render(rehearsal.problem, page.player_names) if rehearsal.problem else ""
    board = None
    if rehearsal.view is not None:
        board = dataclasses.replace(
            page, view=rehearsal.view, token=view_token(rehearsal.view), since=None
        )
        board.__dict__["before_last"] = None  # a turn not played yet: nothing "changed"
    labels = (
        [text.render(item["label"], page.player_names) for item in premove.actions]
        if (premove is not None and premove.dropped is None)
        else []
    )
    return Plan(
        page=board, problem=problem, stale=rehearsal.stale, closed=rehearsal.closed, queued=labels
    )
