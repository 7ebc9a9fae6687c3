"""Asking the table and answering: each a plain function in one transaction holding the
game's row lock (``games.play.locked``), as agreed cancellation does (``community.cancel``).

A request is carried out the moment the last person at the table agrees; computer
players agree at once (a take-back is only ever asked while nobody has moved since the
turn, so they have not moved either); one "no" decides it. A request whose moment has
passed (a move since the turn to take back, a pause date gone by, a pause ended) lapses
instead of being carried out. One request may be open per game at a time.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import pause, play, takeback
from games.models import Game, Pause

from . import signals
from .models import Answer, Request


def deciders(game: Game) -> set[int]:
    """The people at the table (computer players agree to whatever they agree on; the
    player a computer stands in for has no say while it does)."""
    return set(game.seats.filter(user__is_bot=False).values_list("user_id", flat=True))


def open_request(game: Game) -> Request | None:
    return Request.objects.filter(game=game, status=Request.Status.OPEN).first()


def lapsed(game: Game, request: Request, now: datetime | None = None) -> bool:
    """Whether ``request`` can no longer be carried out (``now`` None: leave the clock
    out, as a page drawn from the cache must)."""
    if game.status != Game.Status.ACTIVE:
        return True
    if request.kind == Request.Kind.TAKE_BACK:
        return request.log_length != game.move_count + game.undo_count
    if request.kind == Request.Kind.RESUME:
        return game.paused_until is None
    return game.paused_until is not None or (now is not None and request.until <= now)


def _decide(game: Game, request: Request, status: str, by=None) -> None:
    request.status = status
    request.decided_at = timezone.now()
    request.refused_by = by
    request.save(update_fields=["status", "decided_at", "refused_by"])


def _touch(game: Game) -> None:
    # The other players' pages poll the version: they see the request at once.
    game.version += 1
    game.save(update_fields=["version"])


def _close_lapsed(game: Game) -> None:
    request = open_request(game)
    if request is not None and lapsed(game, request, timezone.now()):
        _decide(game, request, Request.Status.LAPSED)


def ask(game_id: int, user, kind: str, until: datetime | None = None) -> Request:
    """``user`` asks the table for ``kind`` (``until``: the end of a pause). Carried out
    at once when nobody else has a say; otherwise the others are asked (``signals.asked``)."""
    if kind not in Request.Kind.values:
        raise play.PlayError(_("Unknown request."))
    with transaction.atomic():
        game = play.locked(game_id)
        seat = play.running_seat(game, user)
        _close_lapsed(game)
        if open_request(game) is not None:
            raise play.PlayError(_("Another request is waiting for answers: one at a time."), 409)
        fields = {}
        if kind == Request.Kind.PAUSE:
            if until is None:
                raise play.PlayError(_("Choose the date the pause ends."))
            pause.check_until(game, until)
            fields["until"] = until
        elif kind == Request.Kind.RESUME:
            if game.paused_until is None:
                raise play.PlayError(_("The game is not paused by agreement."), 409)
        else:
            turn = takeback.last_turn(game, seat.number)
            fields.update(
                first=turn.first, last=turn.last, log_length=game.move_count + game.undo_count
            )
        request = Request.objects.create(
            game=game, kind=kind, asked_by=user, seat=seat.number, **fields
        )
        Answer.objects.create(request=request, user=user)
        if not _carry_out_if_agreed(game, request):
            signals.asked.send(sender=Request, game=game, request=request)
        _touch(game)
    return request


def answer(game_id: int, user, request_id, agree: bool) -> Request:
    """``user``'s yes or no to the open request ``request_id``."""
    with transaction.atomic():
        game = play.locked(game_id)
        play.running_seat(game, user)
        request = Request.objects.filter(pk=_pk(request_id), game=game).first()
        if request is None or request.status != Request.Status.OPEN:
            raise play.PlayError(_("This request is no longer open."), 409)
        if lapsed(game, request, timezone.now()):
            # Shown as over already; the next request closes it (``_close_lapsed``).
            raise play.PlayError(_("Too late: the game has moved on since it was asked."), 409)
        if user.pk not in deciders(game):
            raise play.NotAPlayer()
        if request.answers.filter(user=user).exists():
            raise play.PlayError(_("You have answered already."), 409)
        if not agree:
            _decide(game, request, Request.Status.REFUSED, by=user)
        else:
            Answer.objects.create(request=request, user=user)
            _carry_out_if_agreed(game, request)
        _touch(game)
    return request


def withdraw(game_id: int, user) -> Request:
    """The asker takes their open request back."""
    with transaction.atomic():
        game = play.locked(game_id)
        play.running_seat(game, user)
        request = open_request(game)
        if request is None or request.asked_by_id != user.pk:
            raise play.PlayError(_("You have no open request in this game."), 409)
        _decide(game, request, Request.Status.WITHDRAWN)
        _touch(game)
    return request


def _carry_out_if_agreed(game: Game, request: Request) -> bool:
    """Carry ``request`` out if everyone at the table agreed; whether it is decided."""
    agreed = set(request.answers.values_list("user_id", flat=True))
    if not deciders(game) <= agreed:
        return False
    if request.kind == Request.Kind.PAUSE:
        pause.start(game, request.until)
    elif request.kind == Request.Kind.RESUME:
        pause.end(game, Pause.Ended.AGREED)
    else:
        turn = takeback.last_turn(game, request.seat)
        if (turn.first, turn.last) != (request.first, request.last):
            _decide(game, request, Request.Status.LAPSED)
            return True
        takeback.take_back(game, turn)
    _decide(game, request, Request.Status.AGREED)
    return True


def _pk(value) -> int | None:
    try:
        pk = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return pk if 0 < pk < 2**63 else None
