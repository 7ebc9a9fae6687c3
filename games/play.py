"""What players do to a game: join, leave, start, act, take back, resign, chat;
and what the clock does to it: pause for vacation, time out, abort.

Plain functions; views only translate requests and errors. Every change to a
running game happens in one transaction holding the game's row lock.
"""

from __future__ import annotations

import functools
import logging
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from enginekit import N_, IllegalAction, msg

from . import extend, lists, premoves, replay, signals, since, text
from .clock import running, zones
from .clock import seats as banks
from .clock.bank import Pace
from .models import ChatMessage, Game, Move, Pause, Seat
from .pages import view_token
from .rows import RowReader, read_seats

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


# Every operation on a game starts here; the SQL is built once (games.rows).
_locking_read = RowReader(Game, lock=True)


def locked(game_id: int) -> Game:
    """The game's row, locked until the transaction ends: one operation at a time.

    Whatever the operation then changes of the game's version or chat count is
    announced after the commit (``signals.changed``): every operation on a game
    starts here, so none can change what open pages show without telling them.
    """
    found = _locking_read.read(game_id)
    if found is None:
        raise Game.DoesNotExist(f"No game {game_id}.")
    game = found[0]
    _announce_after_commit(game, (game.version, game.chat_count))
    return game


def _announce_after_commit(game: Game, before: tuple[int, int] | None) -> None:
    """Send ``signals.changed`` once the transaction commits, if ``game`` (the object
    the operation changes and saves) by then has another version or chat count than
    ``before`` (None: a new game, always announced). Nothing is sent on a rollback."""
    transaction.on_commit(functools.partial(_announce, game, before))


def _announce(game: Game, before: tuple[int, int] | None) -> None:
    if before == (game.version, game.chat_count):
        return
    answers = signals.changed.send_robust(
        sender=Game,
        game_id=game.pk,
        version=game.version,
        chat_count=game.chat_count,
        version_changed=before is None or before[0] != game.version,
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):  # committed already: the request must not fail
            logger.error("%r, a receiver of games.signals.changed, failed: %r", receiver, answer)


def refuse_blocked(user) -> None:
    # A ban sets is_active to False; sessions end with it, but a request
    # already past authentication (or a script) must still be refused here.
    if not user.is_active:
        raise PlayError(_("Your account is blocked."), 403)


def running_seat(game: Game, user, seats: list[Seat] | None = None) -> Seat:
    """The user's seat in a running game, or the refusal that says why not
    (``seats``: the game's seats, when the caller has them already)."""
    refuse_blocked(user)
    if seats is None:
        seat = game.seat_of(user)
    else:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    if game.status == Game.Status.OPEN:
        raise PlayError(_("This game has not started yet."), 409)
    if seat is None:
        raise NotAPlayer()
    if game.status != Game.Status.ACTIVE:
        raise PlayError(_("This game is not running."), 409)
    return seat


def create_game(
    user,
    kind,
    *,
    title,
    players,
    options,
    time_limit_days,
    private,
    timeout_policy: str = Game.TimeoutPolicy.LOSE,
    vacation_allowed: bool = True,
    computer_players: list[str] | tuple[str, ...] = (),
    pause_days: int | None = None,
    rated: bool = True,
    pace: Pace | None = None,
    weekends_off: bool = False,
) -> Game:
    """A new game with ``user`` in the first seat and a computer player of each
    strength in ``computer_players`` in the next ones; it starts at once if
    that fills every seat. ``rated=False``: it counts for nobody's rating."""
    refuse_blocked(user)
    engine = kind.engine
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise PlayError(_("Unknown timeout policy."))
    computers = extend.computer_players()
    known = {strength for strength, _name, _about in computers.strengths} if computers else set()
    if any(strength not in known for strength in computer_players):
        raise PlayError(_("Unknown strength of a computer player."))
    if len(computer_players) >= players:
        raise PlayError(_("At least one seat must be yours."))
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
            timeout_policy=timeout_policy,
            vacation_allowed=vacation_allowed,
            computer_played=bool(computer_players),
            rated=rated,
            **({"pause_days": pause_days} if pause_days is not None else {}),
            **_clock_fields(pace, weekends_off),
        )
        _announce_after_commit(game, None)  # the players' lists and badges show it
        Seat.objects.create(game=game, user=user)
        seated = [user.pk]
        for strength in computer_players:
            bot = computers.account(strength, seated)
            Seat.objects.create(game=game, user=bot)
            seated.append(bot.pk)
        if game.is_full():
            _start(game)
    return game


def _clock_fields(pace: Pace | None, weekends_off: bool) -> dict:
    """A game's clock columns: a bank per seat at ``pace``, or the time per move."""
    if pace is None:
        if weekends_off:
            raise PlayError(_("Weekends off need a clock with a bank of time."))
        return {}
    return {
        "bank_start": pace.start,
        "bank_increment": pace.increment,
        "bank_cap": pace.cap,
        "weekends_off": weekends_off,
    }


def create_seated_game(
    kind,
    users: list,
    *,
    title: str,
    options: dict,
    time_limit_days: int,
    timeout_policy: str = Game.TimeoutPolicy.LOSE,
    vacation_allowed: bool = True,
    created_by=None,
    pace: Pace | None = None,
    weekends_off: bool = False,
) -> Game:
    """A public game that starts at once with ``users[n]`` in seat ``n``.

    For games whose seating is planned elsewhere (a tournament's table rotates its
    seats exactly), so, unlike every other game, the seats are not drawn from the
    seed. A computer player among ``users`` makes it unrated, as anywhere else.
    """
    engine = kind.engine
    if len({user.pk for user in users}) != len(users):
        raise PlayError(_("A player can hold only one seat of a game."))
    for user in users:
        refuse_blocked(user)
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise PlayError(_("Unknown timeout policy."))
    options = engine.validate_options(len(users), options)
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind.slug,
            title=title,
            players=len(users),
            options=options,
            rules_version=engine.rules_version,
            created_by=created_by,
            time_limit_days=time_limit_days,
            private=False,
            timeout_policy=timeout_policy,
            vacation_allowed=vacation_allowed,
            computer_played=any(user.is_bot for user in users),
            **_clock_fields(pace, weekends_off),
        )
        _announce_after_commit(game, None)  # the players' lists and badges show it
        for number, user in enumerate(users):
            Seat.objects.create(game=game, user=user, number=number)
        _start(game, shuffle=False)
    return game


def join(game_id: int, user) -> Game:
    refuse_blocked(user)
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.OPEN:
            raise PlayError(_("This game is not open for players any more."))
        if game.seats.filter(user=user).exists():
            raise PlayError(_("You have already joined this game."))
        if game.is_full():
            raise PlayError(_("This game is full."))
        refused = extend.refusal("join", game=game, user=user)
        if refused:
            raise PlayError(refused, 403)
        Seat.objects.create(game=game, user=user)
        signals.joined.send(sender=Game, game=game, user=user)
        game.version += 1
        game.computer_played = game.computer_played or user.is_bot
        game.save(update_fields=["version", "computer_played"])
        if game.is_full():
            _start(game)
    return game


def leave(game_id: int, user) -> Game:
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.OPEN:
            raise PlayError(_("You can only leave a game before it starts."))
        seat = game.seat_of(user)
        if seat is None:
            raise NotAPlayer()
        seat.delete()
        game.version += 1
        if not game.seats.filter(user__is_bot=False).exists():
            # Computer players never start a game of their own: without a person
            # it would wait in the lobby for ever.
            game.status = Game.Status.ABORTED
        game.save(update_fields=["status", "version"])
    return game


def _start(game: Game, shuffle: bool = True) -> None:
    if shuffle:
        seats = list(game.seats.order_by("joined_at", "pk"))
        # Seating comes from the seed, so the published seed explains it too.
        random.Random(f"seating:{game.seed}").shuffle(seats)
        for number, seat in enumerate(seats):
            seat.number = number
            seat.save(update_fields=["number"])
    game.status = Game.Status.ACTIVE
    game.started_at = game.last_move_at = timezone.now()
    game.version += 1
    game.save()
    signals.game_started.send(sender=Game, game=game)
    state, number = _play_forced_moves(game, replay.initial_state(game), 0)
    _after_change(game, state)
    count = game.move_count
    transaction.on_commit(lambda: replay.store(game, number, count, state))


def _after_change(
    game: Game,
    state: Any,
    moved_on: bool = False,
    seats: list[Seat] | None = None,
    credit: bool = True,
    finished: frozenset[int] = frozenset(),
) -> None:
    """Bring the denormalised turn data, the clock and the result in line with ``state``.

    The clock restarts with the full time only when a turn changes hands (a
    seat starts to move, or ``moved_on``: another seat moved meanwhile, as in a
    forced pass). Steps within a turn, a take-back, or one seat handing in its
    plan while others still write theirs do not give anyone time back.

    With banks, a seat that stops being to move finished its turn and gets the
    increment, unless ``credit`` is False: a take-back or an undo ends no turn, it
    only takes the move away from whoever had it meanwhile (their bank stands with
    what it holds, or a player could gain time by undoing). ``finished``: seats that
    finished a turn in this change though they are to move now as before (the turn
    came back at once: a premove or a forced reply) or were not to move before or
    after (the seat whose queue was played): they get the increment too.

    ``seats``: the game's seats with their users, when the caller has them.
    """
    engine = game.engine
    now = timezone.now()
    result = engine.result(state)
    active = set() if result is not None else set(engine.active_seats(state))
    began = []
    ended = set()
    movers = []
    if seats is None:
        seats = list(game.seats.select_related("user"))
    for seat in seats:
        to_move = seat.number in active
        if to_move:
            movers.append(seat)
        if to_move != seat.to_move:
            seat.to_move = to_move
            seat.to_move_since = now if to_move else None
            seat.save(update_fields=["to_move", "to_move_since"])
            if to_move:
                began.append(seat)
            else:
                ended.add(seat.number)
    if result is not None:
        _finish(game, result)
        return
    taken = {seat.number for seat in seats}
    open_seats = any(n not in taken for n in range(game.players))
    if game.has_bank:
        # Each seat's bank (games.clock): it runs while the seat is to move, a handed-on
        # turn adds the increment; the same things stop it as stop the time per move.
        banks.settle(
            game,
            seats,
            now,
            ended=(ended | finished) if credit else set(),
            stopped=bool(open_seats or game.paused_until),
        )
        left = running.time_left(game, movers, now)
        if not open_seats and not game.paused_until and _away(game, movers) and left:
            running.stop(game, seats, now)
        game.save()
        if began:
            signals.turn_started.send(
                sender=Game, game=game, seats=began, move_count=game.move_count
            )
        return
    if began or moved_on or (game.deadline is None and game.paused_remaining is None):
        left = timedelta(days=game.time_limit_days)
    elif game.deadline is not None:
        left = max(game.deadline - now, timedelta(0))
    else:
        left = game.paused_remaining
    # A seat waiting for a substitute stops the clock, and so do an agreed pause
    # (games.pause) and a vacation (unless the time had already run out).
    if open_seats or game.paused_until or (_away(game, movers) and left > timedelta(0)):
        game.deadline, game.paused_remaining = None, left
    else:
        game.deadline, game.paused_remaining = now + left, None
    game.save()
    if began:
        signals.turn_started.send(sender=Game, game=game, seats=began, move_count=game.move_count)


def _finish(game: Game, result: dict, status: str = Game.Status.FINISHED) -> None:
    """End a locked, running game with ``result``; everyone stops being to move.

    ``status`` is ABORTED when the game ends without a result that counts
    (``result`` then has no winners, only the reason); receivers of
    ``game_finished`` tell the two apart by ``game.status``.
    """
    game.status = status
    game.result = result
    game.finished_at = timezone.now()
    game.deadline = None
    game.paused_remaining = None
    if game.paused_until is not None:  # an agreed pause ends with the game
        game.paused_until = None
        Pause.objects.filter(game=game, ended_at=None).update(
            ended_at=game.finished_at, ended=Pause.Ended.GAME_OVER
        )
    game.save()
    game.seats.update(to_move=False, to_move_since=None, ended_at=game.finished_at)
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
        game.last_move_at = timezone.now()
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
        # Most clicks come from the page drawn last for this version: its token is
        # remembered, and the view need not be built and hashed again.
        stale = seen != replay.known_token(game, seat.number) and seen != view_token(
            game.engine.view(state, seat.number)
        )
    if stale:
        raise StaleMove()


def act(game_id: int, user, action: Any, seen: int | str | None) -> Game:
    """Apply one action by ``user``; the move log gains exactly one row or nothing.

    The game returned carries ``played_state``, its state after the action (and any
    forced moves): the answer to the move draws it without rebuilding it.
    """
    with transaction.atomic():
        game = locked(game_id)
        seats = read_seats(game)
        seat = running_seat(game, user, seats)
        engine = game.engine
        state = replay.current_state(game, locked=True)
        before, start = state, game.move_count
        _check_seen(game, seat, state, seen)
        if seat.number not in engine.active_seats(state):
            raise PlayError(_("It is not your turn."))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise PlayError(_("An action must be an object with a type."))
        try:
            state = engine.apply(state, seat.number, action)
        except IllegalAction as error:
            names = {s.number: s.user.name for s in seats}
            raise RejectedAction(text.render(error.message, names)) from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # An engine should answer any input with IllegalAction; if odd input
            # slips through, refuse it rather than fail the request.
            logger.exception("engine %s crashed on an action in game %s", game.kind, game.pk)
            raise PlayError(_("This action is not possible now.")) from None
        secret = is_secret(engine, before, seat.number, action)
        number = _record(game, seat.number, action, secret)
        game.move_count += 1
        if not secret:
            game.last_move_at = timezone.now()
        own = number
        state, number = _play_forced_moves(game, state, number)
        # The turn of a player who queued actions for it may begin here: they are
        # played now, in this transaction, or dropped (games.premoves).
        state, number = premoves.play_due(
            game, engine.active_seats(before), state, number, seats, _play_forced_moves
        )
        if secret and number == own:
            game.secret_steps += 1  # nobody else sees it: what they read stays as it was
        else:
            game.version += 1
        finished = (
            _turns_finished(game, seat.number, own, number, state) if number > own else frozenset()
        )
        _after_change(game, state, moved_on=number > own, seats=seats, finished=finished)
        if not user.is_bot:
            # Acting is taking in the position. A computer standing in does not
            # take it in for the player: on their return, "since you last
            # looked" shows them what it did.
            since.mark_seen(game, seat.pk)
        count = game.move_count
        if replay.snapshot_due(engine, start, count, before, state):
            # After the commit: encoding a long game's state must not hold the
            # game's lock (or SQLite's) any longer. Should it fail, the next
            # replay that passes this position writes it.
            transaction.on_commit(lambda: replay.save_snapshot(game, count, number, state))
        transaction.on_commit(lambda: replay.store(game, number, count, state))
        transaction.on_commit(lambda: replay.keep_position(game, start, before))
        recorded = number - own + 1  # the action, and the forced moves and premoves after it
        transaction.on_commit(
            lambda: signals.moved.send_robust(sender=Game, game=game, moves=recorded)
        )
    # Ids only (no names, no action): the request's log context adds who and where.
    logger.info("move", extra={"game_id": game.pk, "title": game.kind, "move_number": own})
    game.played_state = state
    return game


def _turns_finished(game: Game, actor: int, own: int, last: int, state: Any) -> frozenset[int]:
    """The seats that finished a turn from move ``own`` (the actor's) to ``last`` (forced
    moves and premoves played after it): each that moved and then saw another seat move,
    or is not to move at the end. One query, only when moves followed the actor's."""
    movers = [actor]
    movers += (
        game.moves.filter(number__gt=own, number__lte=last)
        .order_by("number")
        .values_list("seat", flat=True)
    )
    active = game.engine.active_seats(state)
    return frozenset(
        seat
        for index, seat in enumerate(movers)
        if seat not in active or any(later != seat for later in movers[index + 1 :])
    )


def is_secret(engine, state: Any, seat: int, action: Any) -> bool:
    """Whether ``seat``'s ``action`` in ``state`` is a step only its player sees
    (``engine.secret``, optional: without it, no step is)."""
    secret = getattr(engine, "secret", None)
    return secret is not None and bool(secret(state, seat, action))


def _record(game: Game, seat: int, action: Any, secret: bool = False) -> int:
    """Append the move to the log of the locked ``game``; its number.

    Every row is in force or taken back, so the next number is known without
    counting the log; a log that breaks this (rows written some other way) is
    given the number after its last row instead.
    """
    number = game.move_count + game.undo_count + 1
    try:
        with transaction.atomic():
            Move.objects.create(game=game, number=number, seat=seat, action=action, secret=secret)
    except IntegrityError:
        last = game.moves.order_by("-number").values_list("number", flat=True).first() or 0
        number = last + 1
        try:
            with transaction.atomic():
                Move.objects.create(
                    game=game, number=number, seat=seat, action=action, secret=secret
                )
        except IntegrityError:
            raise StaleMove() from None
    return number


def undo(game_id: int, user, seen: int | str | None) -> Game:
    """Take back ``user``'s last action, where the engine allows it."""
    with transaction.atomic():
        game = locked(game_id)
        seat = running_seat(game, user)
        state = replay.current_state(game, locked=True)
        _check_seen(game, seat, state, seen)
        last = game.moves.filter(undone=False).order_by("-number").first()
        if last is None or last.seat != seat.number or not game.engine.can_undo(state, seat.number):
            raise PlayError(_("You cannot take back your last action now."))
        last.undone = True
        last.save(update_fields=["undone"])
        game.move_count -= 1
        game.undo_count += 1
        replay.forget_after(game, game.move_count)
        number, count, state = replay.rebuild(game)
        if is_secret(game.engine, state, seat.number, last.action):
            game.secret_steps += 1  # taking back a secret step is no news to the others
        else:
            game.version += 1
        _after_change(game, state, credit=False)
        since.mark_seen(game, seat.pk)
        # The take-back changed the cache key: seed it, so the next page
        # does not rebuild the position a second time.
        transaction.on_commit(lambda: replay.store(game, number, count, state))
    return game


def resign(game_id: int, user) -> Game:
    """Resigning ends the game: the resigning player (and their team) loses."""
    with transaction.atomic():
        game = locked(game_id)
        seat = running_seat(game, user)
        seat.resigned = True
        seat.save(update_fields=["resigned"])
        game.version += 1
        _finish(
            game,
            _losing_result(
                game,
                [seat.number],
                msg(N_("{player} resigned."), player=seat.number),
                {"resigned": seat.number},
            ),
        )
        since.mark_seen(game, seat.pk)  # they know how it ended: nothing is new to them
    return game


def _losers(game: Game, seats: list[int]) -> set[int]:
    """``seats`` and everyone who wins or loses with them (their teams)."""
    teammates = getattr(game.engine, "teammates", lambda players, seat: [seat])
    return {mate for seat in seats for mate in teammates(game.players, seat)}


def _losing_result(game: Game, seats: list[int], reason: dict, details: dict) -> dict:
    """The result when ``seats`` (and their teams) lose and everyone else wins."""
    losers = _losers(game, seats)
    others = [n for n in range(game.players) if n not in losers]
    return {
        "winners": others,
        "ranking": others + sorted(losers),
        "reason": reason,
        "details": details,
    }


# -- the clock ------------------------------------------------------------------


def _away(game: Game, movers: list[Seat]) -> bool:
    """Whether the clock stands still: everyone who must move is on a vacation the game allows."""
    return bool(
        game.vacation_allowed and movers and all(seat.user.on_vacation() for seat in movers)
    )


def _movers(game: Game) -> list[Seat]:
    return list(game.seats.filter(to_move=True).select_related("user").order_by("number"))


def sync_clock(game_id: int) -> str | None:
    """Stop or restart a running game's clock for its movers' vacations.

    The clock stops when every seat to move is on vacation (and the game
    allows vacation) and keeps the time that was left; it restarts with that
    time as soon as one of them is back. Returns "paused", "resumed" or None
    (nothing to change), so running it again changes nothing more.
    """
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.ACTIVE:
            return None
        if game.open_seats:
            return None  # stopped until a substitute takes the seat; take_seat restarts it
        if game.paused_until is not None:
            return None  # stopped by agreement; games.pause restarts it
        now = timezone.now()
        movers = _movers(game)
        away = _away(game, movers)
        if away and game.deadline is not None and running.time_left(game, movers, now):
            # Late already when the vacation began: no pause, the timeout applies.
            running.stop(game, list(game.seats.select_related("user")), now)
            game.save(update_fields=["deadline", "paused_remaining"])
            return "paused"
        if not away and game.deadline is None:
            running.restart(game, list(game.seats.select_related("user")), now)
            game.save(update_fields=["deadline", "paused_remaining"])
            return "resumed"
    return None


def time_zone_changed(user, before: str) -> int:
    """``user`` (saved with their new time zone) moved from the zone named ``before``:
    their running banks in games with weekends off run on by the new zone's weekends,
    and those games' deadlines follow (the sweep reads them). How many games changed."""
    running_banks = Seat.objects.filter(
        user=user,
        to_move=True,
        bank_since__isnull=False,
        game__status=Game.Status.ACTIVE,
        game__weekends_off=True,
    )
    changed = 0
    for game_id in running_banks.values_list("game_id", flat=True).distinct():
        with transaction.atomic():
            game = locked(game_id)
            seats = list(game.seats.select_related("user"))
            if banks.rezone(game, seats, user.pk, zones.named(before), timezone.now()):
                game.save(update_fields=["deadline"])
                changed += 1
    return changed


def time_out(game_id: int, expected_deadline) -> str | None:
    """Apply the game's timeout policy, if its deadline ``expected_deadline`` has passed.

    Does nothing (returns None) unless the game is still running with exactly
    that deadline and it lies in the past: a second sweep, or one racing this
    one, finds the game finished or its deadline moved and leaves it alone.

    The late players are all seats still to move (several in a simultaneous
    phase, e.g. Tal's plans: those who have already handed in theirs are not
    late). The clock is the game's, not a seat's: if it ran out, everyone to
    move is late, on vacation or not: a vacation stops the clock only while
    time is left (``sync_clock``), so it cannot save a player already late.

    Policy "the late player loses": the late seats and their teams lose, the
    others win. If that leaves no winner (everyone is late, or the late seats'
    teams are everyone), the game is aborted instead: nobody won it.
    Policy "the game is aborted": the game is aborted.
    Policy "substitute": the late players leave their seats, which wait with
    the clock stopped for someone to take them over (``take_seat``); only if
    that would empty every seat is the game aborted.

    Policy "stand-in": computer players take the late seats and play on.

    Either way the game ends through ``_finish``, so ``game_finished`` tells
    everyone, with the reason in the result. Returns "lost", "aborted",
    "opened", "stood_in" or None.
    """
    with transaction.atomic():
        game = locked(game_id)
        now = timezone.now()
        if (
            game.status != Game.Status.ACTIVE
            or game.deadline is None
            or game.deadline != expected_deadline
            or game.deadline > now
        ):
            return None
        movers = _movers(game)
        if game.has_bank:
            # Only the seats whose own bank ran out are late.
            movers = banks.late(game, movers, now)
        if not movers:
            return None
        late = [seat.number for seat in movers]
        aborted = msg(N_("The game was aborted: {players} did not move in time."), players=late)
        return _apply_timeout_policy(game, late, _late_reason(late), aborted, {"timed_out": late})


def _apply_timeout_policy(
    game: Game,
    seats: list[int],
    lost: dict,
    aborted: dict,
    details: dict,
    reclaimable: bool = True,
) -> str:
    """End a locked, running game as its timeout policy says for ``seats``.

    Policy "a computer player takes over": computer players take the seats
    and play on, the clock restarts (``_stand_in``); if no person would be
    left playing, the game is aborted instead.
    Policy "the seat opens to a substitute": the seats are emptied and the
    clock stops until someone takes them over. Policy "the late player
    loses": ``seats`` and their teams lose (reason ``lost``), unless that
    leaves no winner. Otherwise (policy "the game is aborted", or nobody left
    to win or to play on) the game is aborted (reason ``aborted``).

    ``reclaimable``: whether the players may take back a seat a computer took.
    """
    game.version += 1
    if game.timeout_policy == Game.TimeoutPolicy.STAND_IN and _stand_in(game, seats, reclaimable):
        return "stood_in"
    if game.timeout_policy == Game.TimeoutPolicy.SUBSTITUTE and len(seats) < len(game.seats.all()):
        _open_seats(
            game, [seat for seat in game.seats.select_related("user") if seat.number in seats]
        )
        return "opened"
    if game.timeout_policy == Game.TimeoutPolicy.LOSE and len(_losers(game, seats)) < (
        game.players
    ):
        _finish(game, _losing_result(game, seats, lost, details))
        return "lost"
    _finish(
        game,
        {"winners": [], "ranking": [], "reason": aborted, "details": details},
        Game.Status.ABORTED,
    )
    return "aborted"


def _stand_in(game: Game, numbers: list[int], reclaimable: bool = True) -> bool:
    """Computer players take over the late ``numbers``; False (nothing done) if
    that would leave no person playing: a game of computers alone would be
    played to its end before anyone could come back to it.

    A late seat a computer holds already (its task was lost) keeps it. The
    clock restarts with the full time, and ``turn_started`` queues the
    computers' moves: their turn begins now, though the seats were to move before.
    Unless ``reclaimable`` (a player removed by a moderator is not), the
    computer remembers whom it stands in for, who may take the seat back.
    """
    computers = extend.computer_players()
    seats = list(game.seats.select_related("user"))
    late = [seat for seat in seats if seat.number in numbers]
    if computers is None or all(seat.user.is_bot or seat.number in numbers for seat in seats):
        return False
    seated = [seat.user_id for seat in seats]
    for seat in late:
        if seat.bank is not None:  # a computer starts with a fresh bank
            seat.bank = seat.bank_since = None
            seat.save(update_fields=["bank", "bank_since"])
        if seat.user.is_bot:
            continue
        bot = computers.account(computers.stand_in_strength, seated)
        seated.append(bot.pk)
        late_user, seat.user = seat.user, bot
        seat.stood_in_for = late_user if reclaimable else None
        seat.save(update_fields=["user", "stood_in_for"])
        if reclaimable:
            signals.seat_stood_in.send(sender=Game, game=game, number=seat.number, user=late_user)
    game.computer_played = True
    state = replay.current_state(game)
    _after_change(game, state, moved_on=True)
    movers = [seat for seat in late if seat.number in game.engine.active_seats(state)]
    signals.turn_started.send(sender=Game, game=game, seats=movers, move_count=game.move_count)
    return True


def hand_to_computer(game_id: int, user) -> bool:
    """A computer player takes ``user``'s seat of a running game for good and plays on
    (a tournament entrant who withdrew, where the tournament has their games played out).
    False, and nothing changes, where no computer player is registered or the game
    would be left to computers alone."""
    with transaction.atomic():
        game = locked(game_id)
        seat = game.seat_of(user)
        if seat is None:
            raise NotAPlayer()
        if game.status != Game.Status.ACTIVE:
            raise PlayError(_("This game is not running."), 409)
        game.version += 1
        return _stand_in(game, [seat.number], reclaimable=False)


def reclaim_seat(game_id: int, user) -> Game:
    """``user`` takes back the seat a computer player took over when they timed out.

    The computer's queued or running move is then refused (its task acts as
    the seat's user, which it no longer is); the clock runs on as it was.
    """
    refuse_blocked(user)
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.ACTIVE:
            raise PlayError(_("This game is not running."), 409)
        seat = game.stood_in_seat(user)
        if seat is None:
            raise PlayError(_("No computer player holds a seat of yours in this game."), 409)
        seat.user, seat.stood_in_for = user, None
        seat.save(update_fields=["user", "stood_in_for"])
        game.version += 1
        game.save(update_fields=["version"])
    return game


def _open_seats(game: Game, late: list[Seat]) -> None:
    """Take the late players out of their seats; the clock stops until substitutes come.

    A seat left is kept as ``vacated`` (the game stays in its player's lists) and its
    number is open: a substitute gets a new seat with it.
    """
    left_at = timezone.now()
    for seat in late:
        signals.seat_opened.send(sender=Game, game=game, number=seat.number, user=seat.user)
        seat.vacated, seat.ended_at = True, left_at
        seat.to_move, seat.to_move_since = False, None
        seat.save(update_fields=["vacated", "ended_at", "to_move", "to_move_since"])
    if game.has_bank:
        running.stop(game, list(game.seats.select_related("user")), left_at)
    else:
        game.deadline = None
        game.paused_remaining = timedelta(days=game.time_limit_days)
    game.save()


def take_seat(game_id: int, user) -> Game:
    """``user`` takes over an open seat of a running game (the lowest-numbered one).

    The seat keeps its number, so the engine's view for that number (its
    hand, its history) becomes the substitute's; when no seat is open any
    more, the clock runs again with the full time.
    """
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.ACTIVE:
            raise PlayError(_("This game is not running."), 409)
        if game.seat_of(user) is not None:
            raise PlayError(_("You are already playing in this game."))
        if game.left_by(user):
            raise PlayError(_("You ran out of time in this game: its seats are for others."), 409)
        open_seats = game.open_seats
        if not open_seats:
            raise PlayError(_("No seat of this game is waiting for a substitute."), 409)
        refused = extend.refusal("join", game=game, user=user)
        if refused:
            raise PlayError(refused, 403)
        Seat.objects.create(game=game, user=user, number=open_seats[0])
        game.version += 1
        _after_change(game, replay.current_state(game, locked=True))
    return game


def _late_reason(late: list[int]) -> dict:
    if len(late) == 1:
        return msg(N_("{player} did not move in time and lost."), player=late[0])
    return msg(N_("{players} did not move in time and lost."), players=late)


def abort(game_id: int, reason: dict) -> Game:
    """Stop a game for good (moderators): nobody wins, ``reason`` (a Message) says why.

    A running game ends through ``_finish``, so its players are told; a game
    still waiting for players is just closed.
    """
    with transaction.atomic():
        game = locked(game_id)
        game.version += 1
        if game.status == Game.Status.OPEN:
            game.status = Game.Status.ABORTED
            game.result = {"winners": [], "ranking": [], "reason": reason, "details": {}}
            game.save(update_fields=["status", "result", "version"])
            # Never started, so no finished_at: the seats still leave the running games.
            game.seats.update(ended_at=timezone.now())
        elif game.status == Game.Status.ACTIVE:
            result = {"winners": [], "ranking": [], "reason": reason, "details": {"aborted": True}}
            _finish(game, result, Game.Status.ABORTED)
        else:
            raise PlayError(_("This game is already over."), 409)
    return game


def remove_player(game_id: int, user) -> str:
    """Take ``user`` out of a game (moderators, bans): as if their time had run out.

    Before the start the seat is simply given up (an emptied game is
    aborted); in a running game the game's timeout policy decides, at once.
    Returns "left", "lost" or "aborted".
    """
    with transaction.atomic():
        game = locked(game_id)
        seat = game.seat_of(user)
        if seat is None:
            raise NotAPlayer()
        if game.status == Game.Status.OPEN:
            seat.delete()
            game.version += 1
            if not game.seats.exists():
                game.status = Game.Status.ABORTED
            game.save(update_fields=["status", "version"])
            return "left"
        if game.status != Game.Status.ACTIVE:
            raise PlayError(_("This game is already over."), 409)
        number = [seat.number]
        return _apply_timeout_policy(
            game,
            number,
            msg(N_("{player} was removed from the game and lost."), player=seat.number),
            msg(N_("The game was aborted: {players} was removed from it."), players=number),
            {"removed": number},
            reclaimable=False,
        )


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
    refuse_blocked(user)
    with transaction.atomic():
        game = locked(game_id)
        if game.seat_of(user) is None:
            raise NotAPlayer()
        if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
            raise PlayError(_("The chat opens when the game starts."), 409)
        if not game.chat_open:
            raise PlayError(_("The rules of this game forbid talking while it runs."), 409)
        refused = extend.refusal("chat", game=game, user=user)
        if refused:
            raise PlayError(refused, 403)
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        game.chat_count += 1
        game.save(update_fields=["chat_count"])
        signals.chat_posted.send(sender=Game, game=game, message=message)
    return message


def recount_chat(game_id: int) -> None:
    """A chat line was hidden or shown again (moderators): the chat count moves on, so
    open pages fetch the chat anew (the version would make API clients' moves stale)."""
    with transaction.atomic():
        game = locked(game_id)
        game.chat_count += 1
        game.save(update_fields=["chat_count"])


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from JSON escapes
        return False
    return True


def next_game_for(user) -> Game | None:
    """The running game that has waited longest for ``user`` to move."""
    seat = (
        lists.seats_to_move(user)
        .order_by("to_move_since", "game_id")
        .select_related("game")
        .first()
    )
    return seat.game if seat else None
