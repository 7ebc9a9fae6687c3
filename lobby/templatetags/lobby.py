from django import template
from django.utils.translation import gettext as _

from games.models import Game
from games.text import join_names
from lobby import invites

register = template.Library()


@register.inclusion_tag("lobby/_pending_invitations.html")
def pending_invitations(user) -> dict:
    return {"invitations": invites.pending_for(user)}


@register.inclusion_tag("lobby/_invite_by_name.html", takes_context=True)
def invite_by_name(context, game: Game) -> dict:
    """The creator's form to invite a player by name, with the invitations sent so far."""
    user = context["user"]
    allowed = user.is_authenticated and invites.may_invite(game, user)
    return {
        "game": game,
        "allowed": allowed,
        "invitations": invites.sent_for(game) if allowed else [],
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def winner_names(game: Game) -> str:
    """The winners of a finished game, from the seats read with it (the lists prefetch them)."""
    winners = set((game.result or {}).get("winners") or [])
    return join_names([seat.user.name for seat in game.seats.all() if seat.number in winners])


@register.simple_tag
def outcome(game: Game, player) -> str:
    """How an ended game went for ``player`` ("My games", the archive, the profile):
    aborted, ran out of time (a computer stood in for them to the end, or they left
    the seat to a substitute), won, lost, or finished (nobody won: a draw)."""
    if game.status == Game.Status.ABORTED:
        return _("aborted")
    winners = (game.result or {}).get("winners") or []
    for seat in game.seats.all():
        if seat.stood_in_for_id == player.pk:
            return _("ran out of time")
        if seat.user_id == player.pk:
            if seat.number in winners:
                return _("won")
            return _("lost") if winners else _("finished")
    return _("ran out of time")  # they left the seat to a substitute
