"""Outbox rows for what happens in games; runs inside the move's transaction."""

from __future__ import annotations

import datetime

from django.dispatch import receiver

from games import signals
from games.models import Game

from . import outbox, practice, schedule
from .away import on_vacation_here
from .models import Notification


def _wants_mail(user) -> bool:
    return user.is_active and bool(user.email)


@receiver(signals.turn_started)
def turn_started(sender, game: Game, seats, move_count: int, **kwargs) -> None:
    if practice.is_practice(game):
        return  # the player is looking at it (notify.practice)
    for seat in seats:
        user = seat.user
        if not _wants_mail(user) or not user.notify_turn or on_vacation_here(user, game):
            continue
        row = {
            "kind": Notification.Kind.TURN,
            "address": user.email,
            "user": user,
            "game": game,
            "seat": seat.number,
            "move_count": move_count,
            "turn_since": seat.to_move_since,
            "dedupe_key": f"turn:{game.pk}:{seat.number}:{move_count}",
        }
        if user.digest_hour is None:
            outbox.queue(**row, due_at=schedule.send_time(user))
            continue
        at = schedule.next_digest(user)
        for _ in range(2):
            digest = outbox.queue(
                kind=Notification.Kind.DIGEST,
                address=user.email,
                user=user,
                due_at=at,
                dedupe_key=f"digest:{user.pk}:{at.date().isoformat()}",
            )
            if digest.claimed_at is None and digest.sent_at is None and not digest.skipped:
                break
            # Today's digest is going or gone: this turn waits for tomorrow's.
            at = schedule.next_digest(user, at + datetime.timedelta(hours=1))
        outbox.queue(**row, due_at=at, in_digest=True)


@receiver(signals.game_started)
def game_started(sender, game: Game, **kwargs) -> None:
    if practice.is_practice(game):
        return  # its creator started it and looks at it (notify.practice)
    _to_all(game, Notification.Kind.GAME_STARTED, "started")


@receiver(signals.game_finished)
def game_finished(sender, game: Game, **kwargs) -> None:
    if practice.is_practice(game) and not practice.end_is_news(game):
        return  # the player saw the end they played (notify.practice)
    _to_all(game, Notification.Kind.GAME_FINISHED, "finished")


@receiver(signals.seat_stood_in)
def seat_stood_in(sender, game: Game, number: int, user, **kwargs) -> None:
    # Like a start or an end, it is news about a game.
    key = f"stood_in:{game.pk}:{user.pk}:{game.version}"
    _game_news(Notification.Kind.STOOD_IN, game, number, user, key)


@receiver(signals.seat_opened)
def seat_opened(sender, game: Game, number: int, user, **kwargs) -> None:
    # For this player the game has ended.
    _game_news(
        Notification.Kind.SEAT_OPENED, game, number, user, f"seat_opened:{game.pk}:{user.pk}"
    )


@receiver(signals.cancel_asked)
def cancel_asked(sender, game: Game, user, vote: int, **kwargs) -> None:
    # The others must answer, or the game goes on: they hear of it without opening it.
    # A computer never votes, and the player a computer stands in for has no say.
    for seat in game.seats.select_related("user"):
        if seat.user_id != user.pk and not seat.user.is_bot:
            key = f"cancel_asked:{game.pk}:{seat.user_id}:{vote}"
            _game_news(Notification.Kind.CANCEL_ASKED, game, seat.number, seat.user, key)


@receiver(signals.invited)
def invited(sender, game: Game, user, **kwargs) -> None:
    # The invitation waits on "My games", which the invitee may not open for days.
    # The version tells an invitation renewed after joining and leaving from the first,
    # whose mail, if it has not gone yet, the new one replaces.
    Notification.objects.filter(
        kind=Notification.Kind.INVITED,
        user=user,
        game=game,
        sent_at=None,
        claimed_at=None,
        skipped="",
    ).update(skipped="invitation renewed")
    key = f"invited:{game.pk}:{user.pk}:{game.version}"
    _game_news(Notification.Kind.INVITED, game, None, user, key)


@receiver(signals.rematch_offered)
def rematch_offered(sender, game: Game, user, rematch: int, **kwargs) -> None:
    # Everyone must accept within REMATCH_DAYS, or the offer lapses. The player a
    # computer stood in for at the end is asked, not the computer.
    for seat in game.seats.select_related("user", "stood_in_for"):
        person = seat.stood_in_for or seat.user
        if person.pk != user.pk and not person.is_bot:
            key = f"rematch_offered:{rematch}:{person.pk}"
            _game_news(Notification.Kind.REMATCH_OFFERED, game, seat.number, person, key)


def _game_news(kind: str, game: Game, number: int | None, user, dedupe_key: str) -> None:
    """One player's mail about ``game``, governed by the game e-mails setting."""
    if not _wants_mail(user) or not user.notify_game_end:
        return
    outbox.queue(
        kind=kind,
        address=user.email,
        user=user,
        game=game,
        seat=number,
        move_count=game.move_count,
        due_at=schedule.send_time(user),
        dedupe_key=dedupe_key,
    )


def _to_all(game: Game, kind: str, key: str) -> None:
    """Every player of ``game``, also one a computer stands in for (they ran out of time)."""
    seats = game.seats.select_related("user", "stood_in_for")
    for seat, user in [(s, u) for s in seats for u in (s.user, s.stood_in_for) if u is not None]:
        _game_news(kind, game, seat.number, user, f"{key}:{game.pk}:{user.pk}")
