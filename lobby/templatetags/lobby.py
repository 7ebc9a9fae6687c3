from django import template

from games.models import Game
from lobby import invites

register = template.Library()


@register.inclusion_tag("lobby/_pending_invitations.html")
def pending_invitations(user) -> dict:
    return {"invitations": invites.pending_for(user)}


@register.inclusion_tag("lobby/_invite_by_name.html", takes_context=True)
def invite_by_name(context, game: Game) -> dict:
    """The creator's form to invite a player by name, with the invitations sent so far."""
    user = context["user"]
    allowed = (
        user.is_authenticated
        and game.status == Game.Status.OPEN
        and game.created_by_id == user.pk
        and game.seat_of(user) is not None
    )
    return {
        "game": game,
        "allowed": allowed,
        "invitations": invites.sent_for(game) if allowed else [],
        "csrf_token": context.get("csrf_token"),
    }
