"""Deleting an account (GDPR Art. 17): the person goes, their games stay whole.

``delete_account`` first lets every running game go on without the player, each through
the operation the game already has for it (``go_on_without``): a computer player takes
the seat where the game's timeout policy allows one (a team partner plays on with it),
the seat opens to a substitute where the policy says so, otherwise the player resigns;
tournaments are left by their own withdrawal rule, ladders left, offers and requests
withdrawn, games still waiting for players left (cancelled if the player created them).

Then, in one transaction (``_forget``), the account becomes "Deleted player N" (N its
id, so the opponents' histories stay readable and tell two deleted players apart) with
a random user name, no e-mail address, an unusable password and no sign-in; what only
served the person is deleted; their chat lines are blanked in place. Moves, results,
ratings and records stay on the pseudonym, so every game replays and every exported
record still verifies.

The stored name is one string, "Deleted player N" (``accounts.models.DELETED_NAME``);
``User.name`` shows it in the reader's language ("Gelöschter Spieler N"), as every page,
mail and record reads the name through it.

A last e-mail tells the old address that it is done: sent directly after the commit,
never through the outbox, so the address is kept in no table; a failure is logged
without it.
"""

from __future__ import annotations

import json
import logging
import re
import secrets

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from agreements import flows as agreements
from agreements.models import Request
from api.models import Token
from automatch.models import Ticket
from community import rematch
from community.models import CancelVote, Rematch
from enginekit import N_, msg
from games import extend, play
from games.models import (
    CalendarKey,
    ChatMessage,
    Game,
    Premove,
    Receipt,
    Seat,
    Spectator,
    VacationDay,
)
from lobby.models import Invitation
from moderation.actions import end_sessions
from moderation.erasure import rename_in_audit_trail
from moderation.models import ChatBan, ChatMute, Report
from notes import keeping as notes
from notify.models import Handle, Mute, Notification, PushDevice, Webhook
from social.models import Block, Follow
from tournaments import ladders
from tournaments import running as tournaments
from tournaments.models import Entrant, LadderPlayer, Tournament

from .models import DELETED_NAME

logger = logging.getLogger(__name__)

PSEUDONYM = DELETED_NAME
AUDIT_ACTION = "delete_account"


class EraseError(Exception):
    pass


def pseudonym(user) -> str:
    return PSEUDONYM.format(number=user.pk)


def is_deleted(user) -> bool:
    return not user.is_active and user.display_name == pseudonym(user) and not user.email


def delete_account(user, *, moderator=None, reason: str = "") -> None:
    """Delete ``user``'s account (themselves, or ``moderator`` for ``reason``, audited)."""
    if user.is_bot:
        raise EraseError(_("Computer players of this site cannot be deleted."))
    if is_deleted(user):
        raise EraseError(_("This account has been deleted already."))
    if moderator is not None:
        reason = (reason or "").strip()
        if not reason:
            raise EraseError(_("A reason is required."))
        # As for bans: a moderator must not remove the people who appoint moderators.
        if (user.is_superuser or user.is_staff) and not moderator.is_superuser:
            raise EraseError(_("Only a superuser can delete the account of a staff member."))
        if extend.audit_trail() is None:
            raise EraseError(_("There is no audit trail to record this in."))
    farewell = _farewell(user)
    go_on_without(user)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if is_deleted(user):  # a second request that waited for the first: one mail only
            raise EraseError(_("This account has been deleted already."))
        if moderator is not None:
            extend.audit_trail()(moderator, AUDIT_ACTION, reason, user=user, target=pseudonym(user))
        _forget(user)
        transaction.on_commit(farewell)


# -- the games go on without the player ---------------------------------------------


def go_on_without(user) -> None:
    """Take ``user`` out of everything that is still going on, each part through its own
    operation (which tells the other players as it always does). Each step is its own
    transaction: a game that ended meanwhile is simply skipped."""
    for entrant in Entrant.objects.filter(
        user=user,
        tournament__status__in=[Tournament.Status.SIGNUP, Tournament.Status.RUNNING],
        status__in=[Entrant.Status.ACTIVE, Entrant.Status.LEFT_OUT],
    ):
        _try(tournaments.withdraw, entrant.tournament_id, user)
    for entry in LadderPlayer.objects.filter(user=user, active=True):
        _try(ladders.leave, entry.ladder_id, user)
    for offer in Rematch.objects.filter(
        status=Rematch.Status.PENDING, game__seats__person=user
    ).distinct():
        _try(rematch.answer, offer.game_id, user, False)
    for request in Request.objects.filter(asked_by=user, status=Request.Status.OPEN):
        _try(agreements.withdraw, request.game_id, user)
    Invitation.objects.filter(
        Q(invitee=user) | Q(invited_by=user), status=Invitation.Status.PENDING
    ).delete()
    for seat in Seat.objects.filter(
        user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    ).select_related("game"):
        if seat.game.status == Game.Status.OPEN:
            _leave_open_game(seat.game, user)
        else:
            _play_on_without(seat.game, seat, user)


def _try(operation, *args) -> None:
    try:
        operation(*args)
    except play.PlayError as error:
        logger.info("account deletion: %s skipped (%s)", operation.__qualname__, error.message)


def _leave_open_game(game: Game, user) -> None:
    if game.created_by_id == user.pk:
        reason = msg(N_("The game was cancelled: the player who created it left the site."))
        _try(play.abort, game.pk, reason)
    else:
        _try(play.leave, game.pk, user)


def _has_partner(game: Game, seat: Seat) -> bool:
    """Whether a person plays on the same team as ``seat`` (King of Siam's four players)."""
    teammates = getattr(game.engine, "teammates", None)
    if teammates is None:
        return False
    partners = set(teammates(game.players, seat.number)) - {seat.number}
    return game.seats.filter(number__in=partners, user__is_bot=False).exists()


def _play_on_without(game: Game, seat: Seat, user) -> None:
    """A computer player where the game allows one or a partner would lose with the
    player; the policy's substitute; otherwise the player resigns."""
    policy = game.timeout_policy
    if policy == Game.TimeoutPolicy.STAND_IN or _has_partner(game, seat):
        try:
            if play.hand_to_computer(game.pk, user):
                return
        except play.PlayError as error:
            logger.info("account deletion: no stand-in in game %s (%s)", game.pk, error.message)
            return
    if policy == Game.TimeoutPolicy.SUBSTITUTE:
        _try(play.remove_player, game.pk, user)
        return
    _try(play.resign, game.pk, user)


# -- the account is forgotten -------------------------------------------------------


def _forget(user) -> None:
    """In the caller's transaction: the person's data out, the pseudonym in."""
    names = [user.get_username(), user.display_name]
    new_name = pseudonym(user)
    played = set(
        Seat.every.filter(Q(user=user) | Q(stood_in_for=user)).values_list("game_id", flat=True)
    )
    rename = _renamer(names, new_name)

    written = set(ChatMessage.objects.filter(user=user).values_list("game_id", flat=True))
    ChatMessage.objects.filter(user=user).update(text="")
    for line in ChatMessage.objects.filter(game_id__in=played).exclude(user=user):
        text = rename(line.text)
        if text != line.text:
            ChatMessage.objects.filter(pk=line.pk).update(text=text)
            written.add(line.game_id)
    for game_id in written:
        play.recount_chat(game_id)  # open pages fetch the chat anew
    for game in Game.objects.filter(pk__in=played):
        title = rename(game.title)[: Game._meta.get_field("title").max_length]
        if title != game.title:
            Game.objects.filter(pk=game.pk).update(title=title)
    for report in Report.objects.filter(Q(reporter=user) | Q(reported=user)):
        fields = {
            name: rename(getattr(report, name)) for name in ("quoted", "reason", "resolution")
        }
        Report.objects.filter(pk=report.pk).update(**fields)
    for tournament in Tournament.objects.filter(entrants__user=user).exclude(final_table=None):
        table = _rename_json(tournament.final_table, rename)
        Tournament.objects.filter(pk=tournament.pk).update(final_table=table)
    rename_in_audit_trail(names, rename)

    webhooks = Webhook.objects.filter(user=user)
    Notification.objects.filter(
        Q(user=user) | Q(webhook__in=webhooks) | Q(device__user=user) | _to_address(user.email)
    ).delete()
    # Others' mentions of a line that is blank now: nothing left to tell them.
    Notification.objects.filter(chat_message__user=user, sent_at=None).delete()
    webhooks.delete()
    notes.erase(user)  # private: nobody else ever read them
    for model in (
        PushDevice,
        Handle,
        Mute,
        CalendarKey,
        Premove,
        VacationDay,
        Receipt,
        Spectator,
        CancelVote,
        Ticket,
        Token,
    ):
        model.objects.filter(user=user).delete()
    Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    ChatMute.objects.filter(Q(user=user) | Q(muted=user)).delete()
    # The decision and its reason stay in the audit trail (under the pseudonym).
    ChatBan.objects.filter(user=user).delete()
    Invitation.objects.filter(Q(invitee=user) | Q(invited_by=user)).delete()
    EmailAddress.objects.filter(user=user).delete()
    end_sessions(user)
    Seat.every.filter(user=user).update(last_seen=None)

    user.username = f"deleted-{secrets.token_hex(8)}"
    user.display_name = new_name
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()  # also voids every sign-in link (notify.signin)
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_seen = user.vacation_until = user.digest_hour = None
    user.show_online = user.signin_links = False
    user.notify_turn = user.notify_game_end = user.notify_mention = False
    user.notify_last_warning = False
    user.notify_reminder_hours = 0
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _to_address(address: str) -> Q:
    return Q(address__iexact=address) if address else Q(pk__in=[])


def _renamer(names: list[str], new_name: str):
    """A function that replaces the player's names, as whole words, by the pseudonym."""
    names = sorted({name for name in names if name and len(name) >= 3}, key=len, reverse=True)
    if not names:
        return lambda text: text
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in names) + r")(?!\w)", re.I)
    return lambda text: pattern.sub(new_name, text) if text else text


def _rename_json(value, rename):
    return json.loads(rename(json.dumps(value, ensure_ascii=False)))


# -- the last e-mail ----------------------------------------------------------------


def _farewell(user):
    """The confirmation to the old address, built now (the address is gone after the
    commit) and sent after it; nothing of it is stored."""
    address = user.email
    language = user.language or settings.LANGUAGE_CODE
    name = user.name
    user_id = user.pk

    def send() -> None:
        if not address:
            return
        with translation.override(language):
            context = {"name": name, "pseudonym": PSEUDONYM.format(number=user_id)}
            subject = " ".join(
                render_to_string("emails/account_deleted-subject.txt", context).split()
            )
            message = EmailMultiAlternatives(
                subject,
                render_to_string("emails/account_deleted-body.txt", context),
                to=[address],
            )
            message.attach_alternative(
                render_to_string("emails/account_deleted-body.html", context), "text/html"
            )
        try:
            message.send()
        except Exception as error:  # noqa: BLE001 - the mail server may fail; the deletion stands
            # The error's text may hold the address: only its kind is logged.
            logger.warning(
                "account %s deleted; its farewell mail failed (%s)", user_id, type(error).__name__
            )

    return send
