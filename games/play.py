"""What players do to a game: join, leave, start, act, take back, resign, chat.

Plain functions; views only translate requests and errors. Every change to a
running game happens in one transaction holding the game's row lock.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from enginekit import N_, IllegalAction, msg

from . import replay, signals, text
from .models import ChatMessage, Game, Move, Seat
from .pages import view_token

logger = logging.getLogger(__name__)


class PlayError(Exception):
    """A request the site refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class NotAPlayer(PlayError):
    def __init__(self) -> None:
        super().__init__(_("You are not playing in this game."), 403)


class StaleMove(PlayError):
    def __init__(self) -> None:
        super().__init__(
            _("The game moved on before your move arrived. Here is the current position."), 409
        )


class RejectedAction(PlayError):
    """The engine refused the action, with its message in the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 400)


def _locked(game_id: int) -> Game:
    return Game.objects.select_for_update().get(pk=game_id)


def _running_seat(game: Game, user) -> Seat:
    """The user's seat in a running game, or the refusal that says why not."""
    seat = game.seat_of(user)
    if game.status == Game.Status.OPEN:
        raise PlayError(_("This game has not started yet."), 409)
    if seat is None:
        raise NotAPlayer()
    if game.status != Game.Status.ACTIVE:
        raise PlayError(_("This game is not running."), 409)
    return seat


def create_game(user, kind, *, title, players, options, time_limit_days, private) -> Game:
    engine = kind.engine
    options = engine.validate_options(players, options)
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind.slug,
            title=title,
            players=players,
            options=options,
            rules_version=engine.rules_version,
            created_by=user,
            time_limit_days=time_limit_days,
            private=private,
        )
        Seat.objects.create(game=game, user=user)
    return game


def join(game_id: int, user) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise PlayError(_("This game is not open for players any more."))
        if game.seats.filter(user=user).exists():
            raise PlayError(_("You have already joined this game."))
        if game.is_full():
            raise PlayError(_("This game is full."))
        Seat.objects.create(game=game, user=user)
        game.version += 1
        game.save(update_fields=["version"])
        if game.is_full():
            _start(game)
    return game


def leave(game_id: int, user) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise PlayError(_("You can only leave a game before it starts."))
        seat = game.seat_of(user)
        if seat is None:
            raise NotAPlayer()
        seat.delete()
        game.version += 1
        if not game.seats.exists():
            game.status = Game.Status.ABORTED
        game.save(update_fields=["status", "version"])
    return game


def _start(game: Game) -> None:
    seats = list(game.seats.order_by("joined_at", "pk"))
    # Seating comes from the seed, so the published seed explains it too.
    random.Random(f"seating:{game.seed}").shuffle(seats)
    for number, seat in enumerate(seats):
        seat.number = number
        seat.save(update_fields=["number"])
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.version += 1
    game.save()
    signals.game_started.send(sender=Game, game=game)
    state, number = _play_forced_moves(game, replay.initial_state(game), 0)
    _after_change(game, state)
    count = game.move_count
    transaction.on_commit(lambda: replay.store(game, number, count, state))


def _after_change(game: Game, state: Any) -> None:
    """Bring the denormalised turn data and the result in line with ``state``."""
    engine = game.engine
    now = timezone.now()
    result = engine.result(state)
    active = set() if result is not None else set(engine.active_seats(state))
    began = []
    for seat in game.seats.select_related("user"):
        to_move = seat.number in active
        if to_move != seat.to_move:
            seat.to_move = to_move
            seat.to_move_since = now if to_move else None
            seat.save(update_fields=["to_move", "to_move_since"])
            if to_move:
                began.append(seat)
    if result is not None:
        _finish(game, result)
        return
    game.deadline = now + timedelta(days=game.time_limit_days)
    game.save()
    if began:
        signals.turn_started.send(sender=Game, game=game, seats=began, move_count=game.move_count)


def _finish(game: Game, result: dict) -> None:
    """End a locked, running game with ``result``; everyone stops being to move."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.finished_at = timezone.now()
    game.deadline = None
    game.save()
    game.seats.update(to_move=False, to_move_since=None)
    signals.game_finished.send(sender=Game, game=game)


def _play_forced_moves(game: Game, state: Any, number: int) -> tuple[Any, int]:
    """Apply and record the moves the rules leave no choice about."""
    forced_action = getattr(game.engine, "forced_action", None)
    while forced_action is not None and (forced := forced_action(state)) is not None:
        seat, action = forced
        state = game.engine.apply(state, seat, action)
        number += 1
        Move.objects.create(game=game, number=number, seat=seat, action=action)
        game.move_count += 1
    return state, number


def _check_seen(game: Game, seat: Seat, state: Any, seen: int | str | None) -> None:
    """Refuse a click made on a position its sender no longer sees.

    ``seen`` is the game's version (API clients) or the token of the page the
    click came from: moves the sender cannot see (secret plans written at the
    same time) do not make that page stale.
    """
    if seen is None:
        return
    if isinstance(seen, int):
        stale = seen != game.version
    else:
        stale = seen != view_token(game.engine.view(state, seat.number))
    if stale:
        raise StaleMove()


def act(game_id: int, user, action: Any, seen: int | str | None) -> Game:
    """Apply one action by ``user``; the move log gains exactly one row or nothing."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _running_seat(game, user)
        engine = game.engine
        state = replay.current_state(game)
        _check_seen(game, seat, state, seen)
        if seat.number not in engine.active_seats(state):
            raise PlayError(_("It is not your turn."))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise PlayError(_("An action must be an object with a type."))
        try:
            state = engine.apply(state, seat.number, action)
        except IllegalAction as error:
            names = {s.number: s.user.name for s in game.seats.select_related("user")}
            raise RejectedAction(text.render(error.message, names)) from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # An engine should answer any input with IllegalAction; if odd input
            # slips through, refuse it rather than fail the request.
            logger.exception("engine %s crashed on an action in game %s", game.kind, game.pk)
            raise PlayError(_("This action is not possible now.")) from None
        number = game.moves.count() + 1
        try:
            with transaction.atomic():
                Move.objects.create(game=game, number=number, seat=seat.number, action=action)
        except IntegrityError:
            raise StaleMove() from None
        game.move_count += 1
        state, number = _play_forced_moves(game, state, number)
        game.version += 1
        _after_change(game, state)
        count = game.move_count
        transaction.on_commit(lambda: replay.store(game, number, count, state))
    return game


def undo(game_id: int, user, seen: int | str | None) -> Game:
    """Take back ``user``'s last action, where the engine allows it."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _running_seat(game, user)
        state = replay.current_state(game)
        _check_seen(game, seat, state, seen)
        last = game.moves.filter(undone=False).order_by("-number").first()
        if last is None or last.seat != seat.number or not game.engine.can_undo(state, seat.number):
            raise PlayError(_("You cannot take back your last action now."))
        last.undone = True
        last.save(update_fields=["undone"])
        game.move_count -= 1
        game.version += 1
        game.undo_count += 1
        state = replay.fresh_replay(game)
        _after_change(game, state)
        # The take-back changed the cache key: seed it, so the next page
        # does not replay the whole log a second time.
        number = (
            game.moves.filter(undone=False)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
            or 0
        )
        count = game.move_count
        transaction.on_commit(lambda: replay.store(game, number, count, state))
    return game


def resign(game_id: int, user) -> Game:
    """Resigning ends the game: the resigning player (and their team) loses."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = _running_seat(game, user)
        seat.resigned = True
        seat.save(update_fields=["resigned"])
        engine = game.engine
        losers = set(getattr(engine, "teammates", lambda g, s: [s])(game.players, seat.number))
        others = [n for n in range(game.players) if n not in losers]
        game.version += 1
        _finish(
            game,
            {
                "winners": others,
                "ranking": others + sorted(losers),
                "reason": msg(N_("{player} resigned."), player=seat.number),
                "details": {"resigned": seat.number},
            },
        )
    return game


def post_chat(game_id: int, user, text: str) -> ChatMessage:
    text = text.strip()
    if not text:
        raise PlayError(_("Write something first."))
    if "\x00" in text or not _encodable(text):
        raise PlayError(_("The message contains characters that cannot be stored."))
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise PlayError(
            _("Chat messages can be at most %(n)d characters long.")
            % {"n": settings.CHAT_MAX_LENGTH}
        )
    with transaction.atomic():
        game = _locked(game_id)
        if game.seat_of(user) is None:
            raise NotAPlayer()
        if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
            raise PlayError(_("The chat opens when the game starts."), 409)
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        game.chat_count += 1
        game.save(update_fields=["chat_count"])
    return message


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from JSON escapes
        return False
    return True


def next_game_for(user) -> Game | None:
    """The running game that has waited longest for ``user`` to move."""
    seat = (
        Seat.objects.filter(user=user, to_move=True, game__status=Game.Status.ACTIVE)
        .order_by("to_move_since", "game_id")
        .select_related("game")
        .first()
    )
    return seat.game if seat else None
