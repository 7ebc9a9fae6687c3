"""Inviting a player by name to an open game, and the invitee's answer."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games import extend, play, signals
from games.models import Game

from .models import Invitation


def may_invite(game: Game, user) -> bool:
    """The creator of an open game invites, while they hold a seat in it."""
    return (
        game.status == Game.Status.OPEN
        and game.created_by_id == user.pk
        and game.seat_of(user) is not None
    )


def invite(game_id: int, by, username: str) -> Invitation:
    """The creator of an open game asks ``username`` to join it."""
    play.refuse_blocked(by)
    username = (username or "").strip()
    if not username:
        raise play.PlayError(_("Type the user name of the player to invite."))
    with transaction.atomic():
        game = play.locked(game_id)
        if game.status != Game.Status.OPEN:
            raise play.PlayError(_("This game is not open for players any more."), 409)
        if not may_invite(game, by):
            raise play.PlayError(_("Only the creator of a game can invite players."), 403)
        # Computer players are seated when the game is created, never invited.
        invitee = (
            get_user_model()
            .objects.filter(username__iexact=username, is_active=True, is_bot=False)
            .first()
        )
        if invitee is None:
            raise play.PlayError(_("There is no player with this user name."), 404)
        if invitee.pk == by.pk:
            raise play.PlayError(_("You cannot invite yourself."))
        if game.seats.filter(user=invitee).exists():
            raise play.PlayError(_("This player has already joined the game."), 409)
        if game.is_full():
            raise play.PlayError(_("This game is full."), 409)
        refused = extend.refusal("invite", game=game, by=by, invitee=invitee)
        if refused:
            raise play.PlayError(refused, 403)
        invitation, created = Invitation.objects.get_or_create(
            game=game, invitee=invitee, defaults={"invited_by": by}
        )
        if not created and invitation.status == Invitation.Status.DECLINED:
            # Asking again after a no would turn an invitation into pestering.
            raise play.PlayError(_("This player has declined the invitation."), 409)
        if not created and invitation.status == Invitation.Status.ACCEPTED:
            # They joined and left again (joining answers an invitation): ask anew.
            invitation.status, invitation.invited_by = Invitation.Status.PENDING, by
            invitation.save(update_fields=["status", "invited_by"])
            created = True
        elif not created and invitation.status == Invitation.Status.PENDING:
            raise play.PlayError(
                _("%(name)s is invited already and has not answered yet.") % {"name": invitee.name},
                409,
            )
        if created:
            signals.invited.send(Invitation, game=game, user=invitee, by=by)
    return invitation


def pending_for(user):
    """The invitations ``user`` can still answer, newest first."""
    return (
        Invitation.objects.filter(
            invitee=user, status=Invitation.Status.PENDING, game__status=Game.Status.OPEN
        )
        .select_related("game", "invited_by")
        .prefetch_related("game__seats__user")
    )


def sent_for(game: Game):
    return Invitation.objects.filter(game=game).select_related("invitee")


def answer(invitation_id: int, user, accept: bool) -> Invitation:
    """Accepting joins the game (a private one too: the invitation is the pass)."""
    with transaction.atomic():
        invitation = Invitation.objects.filter(pk=invitation_id, invitee=user).first()
        if invitation is None:
            raise play.PlayError(_("There is no such invitation."), 404)
        game = play.locked(invitation.game_id)
        invitation.refresh_from_db()
        if invitation.status != Invitation.Status.PENDING:
            raise play.PlayError(_("You have already answered this invitation."), 409)
        if accept:
            if game.status != Game.Status.OPEN:
                raise play.PlayError(
                    _("%(game)s is not open for players any more: it has started or ended.")
                    % {"game": game.named},
                    409,
                )
            play.join(game.pk, user)
            invitation.status = Invitation.Status.ACCEPTED
        else:
            invitation.status = Invitation.Status.DECLINED
        invitation.save(update_fields=["status"])
    return invitation
