"""What moderators do, as plain functions: each needs a reason, and each
writes its audit entry in the same transaction as the change, so there is no
change without an entry and no entry without the change.

Changes to games go through ``games.play`` (the rules and the players'
notifications stay in one place); this module adds the audit and the bans.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from enginekit import N_, msg
from games import pause, play
from games.models import ChatMessage, Game, Pause, Seat

from . import signals
from .models import AuditEntry, ChatBan, Report


class ModerationError(Exception):
    pass


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError(_("A reason is required."))
    return reason


def _audit(moderator, action: str, reason: str, *, user=None, game=None, target="") -> AuditEntry:
    return AuditEntry.objects.create(
        moderator=moderator,
        moderator_name=moderator.get_username(),
        action=action,
        target_user=user,
        target_game=game,
        target=(target or str(user or game))[:250],
        reason=reason,
    )


def end_sessions(user) -> int:
    """Sign ``user`` out everywhere (sessions live in the database)."""
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()
            ended += 1
    return ended


def ban(moderator, user, reason: str) -> list[int]:
    """Block ``user``: no sign-in, no joining, moving or chatting, signed out now.

    Each game they sit in ends for them as if their time had run out (the
    game's timeout policy); games still waiting for players lose their seat.
    Returns the ids of those games.
    """
    reason = _reason(reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not user.is_active:
            raise ModerationError(_("%(user)s is already banned.") % {"user": user})
        if user.pk == moderator.pk:
            raise ModerationError(_("You cannot ban yourself."))
        if user.is_bot:
            # The site's computer players: banning one would end every game it plays.
            raise ModerationError(_("%(user)s is a computer player of this site.") % {"user": user})
        # A moderator must not lock out the people who appoint moderators.
        if user.is_superuser:
            raise ModerationError(
                _("%(user)s is a superuser and cannot be banned.") % {"user": user}
            )
        if user.is_staff and not moderator.is_superuser:
            raise ModerationError(
                _("Only a superuser can ban %(user)s, who is on the staff.") % {"user": user}
            )
        user.is_active = False
        user.save(update_fields=["is_active"])
        entry = _audit(
            moderator, AuditEntry.Action.BAN, reason, user=user, target=user.get_username()
        )
        # The player is told why (DSA Art. 17): by mail now, and when they try to sign in.
        signals.sanctioned.send(sender=AuditEntry, user=user, entry=entry, until=None)
        games = list(
            Seat.objects.filter(
                user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
            ).values_list("game_id", flat=True)
        )
        for game_id in games:
            play.remove_player(game_id, user)
        end_sessions(user)
    return games


def unban(moderator, user, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if user.is_active:
            raise ModerationError(_("%(user)s is not banned.") % {"user": user})
        user.is_active = True
        user.save(update_fields=["is_active"])
        _audit(moderator, AuditEntry.Action.UNBAN, reason, user=user, target=user.get_username())


def mute_chat(moderator, user, reason: str, days: int) -> ChatBan:
    """``user`` may write no chat line for ``days`` days; they are told why by mail, on
    their game pages and when they try to write. A new mute replaces one in force."""
    reason = _reason(reason)
    if days < 1:
        raise ModerationError(_("A chat mute lasts at least a day."))
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if user.pk == moderator.pk:
            raise ModerationError(_("You cannot mute yourself."))
        if user.is_bot:
            raise ModerationError(_("%(user)s is a computer player of this site.") % {"user": user})
        # A new row (a new id): the game pages' key sees the change (moderation.frame).
        ChatBan.objects.filter(user=user).delete()
        ban = ChatBan.objects.create(
            user=user, until=timezone.now() + datetime.timedelta(days=days), reason=reason
        )
        entry = _audit(
            moderator,
            AuditEntry.Action.MUTE_CHAT,
            reason,
            user=user,
            target=f"{user.get_username()} for {days} days",
        )
        signals.sanctioned.send(sender=AuditEntry, user=user, entry=entry, until=ban.until)
    return ban


def mute_chat_for_a_week(moderator, user, reason: str) -> ChatBan:
    return mute_chat(moderator, user, reason, 7)


def mute_chat_for_a_month(moderator, user, reason: str) -> ChatBan:
    return mute_chat(moderator, user, reason, 30)


def unmute_chat(moderator, user, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        if not ChatBan.objects.filter(user=user, until__gt=timezone.now()).exists():
            raise ModerationError(_("%(user)s is not muted in chat.") % {"user": user})
        ChatBan.objects.filter(user=user).delete()
        _audit(
            moderator, AuditEntry.Action.UNMUTE_CHAT, reason, user=user, target=user.get_username()
        )


def abort_game(moderator, game: Game, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        try:
            # The players read the moderator's reason on the board.
            play.abort(game.pk, msg(N_("A moderator aborted the game: {note}"), note=reason))
        except play.PlayError as error:
            raise ModerationError(error.message) from None
        _audit(moderator, AuditEntry.Action.ABORT, reason, game=game)


def end_pause(moderator, game: Game, reason: str) -> None:
    """End the pause the players of ``game`` agreed on: its clock runs on now with the
    time that was left (``games.pause``)."""
    reason = _reason(reason)
    with transaction.atomic():
        try:
            pause.end_now(game.pk, Pause.Ended.MODERATOR)
        except play.PlayError as error:
            raise ModerationError(error.message) from None
        _audit(moderator, AuditEntry.Action.END_PAUSE, reason, game=game)


def remove_player(moderator, seat: Seat, reason: str) -> str:
    reason = _reason(reason)
    with transaction.atomic():
        try:
            outcome = play.remove_player(seat.game_id, seat.user)
        except play.PlayError as error:
            raise ModerationError(error.message) from None
        _audit(
            moderator,
            AuditEntry.Action.REMOVE_PLAYER,
            reason,
            user=seat.user,
            game=seat.game,
            target=f"{seat.user.get_username()} in {seat.game}",
        )
    return outcome


def _set_hidden(moderator, message: ChatMessage, hidden: bool, reason: str, action: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        updated = ChatMessage.objects.filter(pk=message.pk, hidden=not hidden).update(hidden=hidden)
        if not updated:
            raise ModerationError(
                _("The message is already hidden.") if hidden else _("The message is not hidden.")
            )
        # Open pages watch chat_count: counting the change makes them fetch the chat again.
        play.recount_chat(message.game_id)
        _audit(
            moderator,
            action,
            reason,
            user=message.user,
            game=message.game,
            target=f"{message.user.get_username()}: {message.text[:200]}",
        )


def hide_message(moderator, message: ChatMessage, reason: str) -> None:
    _set_hidden(moderator, message, True, reason, AuditEntry.Action.HIDE_MESSAGE)


def unhide_message(moderator, message: ChatMessage, reason: str) -> None:
    _set_hidden(moderator, message, False, reason, AuditEntry.Action.UNHIDE_MESSAGE)


def resolve_report(moderator, report: Report, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        now = timezone.now()
        updated = Report.objects.filter(pk=report.pk, status=Report.Status.OPEN).update(
            status=Report.Status.RESOLVED, resolved_by=moderator, resolved_at=now, resolution=reason
        )
        if not updated:
            raise ModerationError(_("This report is already resolved."))
        _audit(
            moderator,
            AuditEntry.Action.RESOLVE_REPORT,
            reason,
            user=report.reported,
            game=report.game,
            target=f"report #{report.pk} on {report.reported.get_username()}",
        )
