"""Outbox rows for what happens in games; runs inside the move's transaction."""

from __future__ import annotations

import re

from django.conf import settings
from django.dispatch import receiver
from django.utils import timezone, translation

from agreements import signals as agreement_signals
from agreements.models import Request
from games import signals
from games.models import Game
from moderation import signals as moderation_signals

from . import outbox, pings, practice, schedule
from .away import on_vacation_here
from .emails import make_message
from .models import Notification


def _wants_mail(user) -> bool:
    return user.is_active and bool(user.email)


@receiver(signals.turn_started)
def turn_started(sender, game: Game, seats, move_count: int, **kwargs) -> None:
    if practice.is_practice(game):
        return  # the player is looking at it (notify.practice)
    known, channel = pings.endpoints_of_turn(game, [seat.user for seat in seats])
    for seat in seats:
        user = seat.user
        if on_vacation_here(user, game):
            continue
        key = f"turn:{game.pk}:{seat.number}:{move_count}"
        row = {
            "user": user,
            "game": game,
            "seat": seat.number,
            "move_count": move_count,
            "turn_since": seat.to_move_since,
        }
        if _wants_mail(user) and user.notify_turn:
            email = {**row, "address": user.email}
            outbox.queue_turn(email, user, "", key, quiet=True, digest=True)
        pings.queue_for(user, Notification.Kind.TURN, key, known=known[user.pk], **row)
    if seats and channel is not None:
        since = seats[0].to_move_since
        key = f"turn:{game.pk}:{move_count}"
        pings.queue_game_channel(game, Notification.Kind.TURN, key, hook=channel, turn_since=since)


@receiver(signals.game_started)
def game_started(sender, game: Game, **kwargs) -> None:
    if practice.is_practice(game):
        return  # its creator started it and looks at it (notify.practice)
    _to_all(game, Notification.Kind.GAME_STARTED, "started")
    pings.queue_game_channel(game, Notification.Kind.GAME_STARTED, f"started:{game.pk}")


@receiver(signals.game_finished)
def game_finished(sender, game: Game, **kwargs) -> None:
    if practice.is_practice(game) and not practice.end_is_news(game):
        return  # the player saw the end they played (notify.practice)
    _to_all(game, Notification.Kind.GAME_FINISHED, "finished")
    pings.queue_game_channel(game, Notification.Kind.GAME_FINISHED, f"finished:{game.pk}")


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


@receiver(signals.premove_dropped)
def premove_dropped(sender, game: Game, seat: int, user, **kwargs) -> None:
    # The turn came and the queued actions were not played: as urgent as the turn,
    # whose mail this one stands in for (notify.compose).
    if user is None or not _wants_mail(user) or not user.notify_turn:
        return
    outbox.queue(
        kind=Notification.Kind.PREMOVE_DROPPED,
        address=user.email,
        user=user,
        game=game,
        seat=seat,
        move_count=game.move_count,
        due_at=schedule.send_time(user),
        dedupe_key=f"premove_dropped:{game.pk}:{user.pk}:{game.move_count}",
    )


_ASKED_KINDS = {
    Request.Kind.PAUSE: Notification.Kind.PAUSE_ASKED,
    Request.Kind.RESUME: Notification.Kind.RESUME_ASKED,
    Request.Kind.TAKE_BACK: Notification.Kind.TAKE_BACK_ASKED,
}


@receiver(agreement_signals.asked)
def agreement_asked(sender, game: Game, request, **kwargs) -> None:
    # Nothing happens until everyone agrees: the others hear of it without opening the
    # game. A computer never answers, and the player a computer stands in for has no say.
    for seat in game.seats.select_related("user"):
        if seat.user_id != request.asked_by_id and not seat.user.is_bot:
            key = f"{request.kind}_asked:{request.pk}:{seat.user_id}"
            _game_news(_ASKED_KINDS[request.kind], game, seat.number, seat.user, key)


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


@receiver(signals.chat_posted)
def chat_posted(sender, game: Game, message, **kwargs) -> None:
    # A player named with @ in a game's chat hears of it; the writer does not.
    for seat in game.seats.select_related("user"):
        person = seat.user
        if person.pk == message.user_id or person.is_bot or not mentions(message.text, person):
            continue
        key = f"mentioned:{message.pk}:{person.pk}"
        row = {"user": person, "game": game, "seat": seat.number, "chat_message": message}
        if _wants_mail(person) and person.notify_mention:
            due = schedule.send_time(person)
            outbox.queue(
                **row,
                kind=Notification.Kind.MENTIONED,
                address=person.email,
                due_at=due,
                dedupe_key=key,
            )
        pings.queue_for(person, Notification.Kind.MENTIONED, key, **row)


def mentions(text: str, user) -> bool:
    """Whether ``text`` names ``user`` with an @ (by user name or display name)."""
    names = {user.username, user.display_name} - {""}
    return any(
        re.search(rf"(?<![\w@])@{re.escape(name)}(?![\w])", text, re.IGNORECASE) for name in names
    )


def _game_news(kind: str, game: Game, number: int | None, user, dedupe_key: str) -> None:
    """One player's news about ``game``: the mail, governed by the game e-mails setting,
    and their devices and webhooks, by their own choice of events."""
    row = {"user": user, "game": game, "seat": number, "move_count": game.move_count}
    if _wants_mail(user) and user.notify_game_end:
        outbox.queue(
            **row,
            kind=kind,
            address=user.email,
            due_at=schedule.send_time(user),
            dedupe_key=dedupe_key,
        )
    pings.queue_for(user, kind, dedupe_key, **row)


def _to_all(game: Game, kind: str, key: str) -> None:
    """Every player of ``game``, also one a computer stands in for (they ran out of time)."""
    seats = game.seats.select_related("user", "stood_in_for")
    for seat, user in [(s, u) for s in seats for u in (s.user, s.stood_in_for) if u is not None]:
        _game_news(kind, game, seat.number, user, f"{key}:{game.pk}:{user.pk}")


@receiver(moderation_signals.sanctioned)
def sanctioned(sender, user, entry, until, **kwargs) -> None:
    """The moderator's reason, by mail (DSA Art. 17): written now, in the player's
    language, because a banned account gets no mail composed at send time."""
    if not user.email:
        return
    context = {
        "user": user,
        "banned": until is None,
        "until": until,
        "reason": entry.reason,
        "contact": settings.OPERATOR_EMAIL,
    }
    with translation.override(user.language or settings.LANGUAGE_CODE):
        with timezone.override(user.time_zone or "UTC"):
            message = make_message("sanctioned", user.email, context)
    outbox.queue(
        kind=Notification.Kind.RAW,
        address=user.email,
        user=user,
        subject=message.subject,
        text=message.body,
        html=message.alternatives[0][0],
        dedupe_key=f"moderation:{entry.pk}",
    )
