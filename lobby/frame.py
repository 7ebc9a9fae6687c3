"""What the lobby adds to the frame's pages (``games.extend``): a player's invitations
in the menu's badge and at the top of My games, and the creator's invite-by-name form
on the waiting page of an open game."""

from __future__ import annotations

from games import extend
from games.models import Game

from . import invites
from .models import Invitation


def _badge_sql() -> str:
    invitations, games = Invitation._meta.db_table, Game._meta.db_table
    return (
        f"(SELECT COUNT(*) FROM {invitations} b3 JOIN {games} b4 ON b4.id = b3.game_id"
        f" WHERE b3.invitee_id = %(badge_user)s AND b3.status = %(lobby_invited)s"
        f" AND b4.status = %(lobby_open)s)"
    )


def _badge_params() -> dict:
    return {"lobby_invited": Invitation.Status.PENDING, "lobby_open": Game.Status.OPEN}


def _pending(context) -> dict:
    return {"invitations": invites.pending_for(context["user"])}


def _invite_form(context) -> dict:
    """The creator's form to invite a player by name, with the invitations sent so far."""
    game, user = context["game"], context["user"]
    allowed = user.is_authenticated and invites.may_invite(game, user)
    return {"allowed": allowed, "invitations": invites.sent_for(game) if allowed else []}


def register() -> None:
    extend.add_badge_part(_badge_sql(), _badge_params)
    extend.add_part("my-games", "lobby/_pending_invitations.html", _pending, order=10)
    extend.add_part("open-game", "lobby/_invite_by_name.html", _invite_form)
