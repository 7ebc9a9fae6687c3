"""What social adds to the frame's pages and decisions (``games.extend``): a player
reads none of the chat of the players they blocked, who cannot join their games or
invite them; the lobby lists the games of the players one follows, and the creator of
an open game invites them with one click."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import extend
from games.models import Game
from lobby.models import Invitation

from . import relations
from .models import Block


def without_blocked(lines, viewer):
    """The chat lines ``viewer`` reads: none from a player they blocked."""
    if not viewer.is_authenticated:
        return lines
    blocked = relations.blocked_ids(viewer)
    return lines.exclude(user_id__in=blocked) if blocked else lines


def refuse_join(game, user) -> str | None:
    """A player blocked by someone who sits in ``game`` does not get a seat beside them."""
    people = game.seats.values("user_id")
    if Block.objects.filter(blocked=user, blocker__in=people).exists():
        return _("A player of this game has blocked you, so you cannot join it.")
    return None


def refuse_invite(game, by, invitee) -> str | None:
    if Block.objects.filter(blocker=invitee, blocked=by).exists():
        return _("%(name)s does not take invitations from you.") % {"name": invitee.name}
    if Block.objects.filter(blocker=by, blocked=invitee).exists():
        return _("You blocked %(name)s. Unblock them first.") % {"name": invitee.name}
    return None


def _friends_games(context) -> dict | None:
    user = context["request"].user
    if not user.is_authenticated:
        return None
    games = relations.friends_games(user)
    if not games:
        return None
    return {"friends_games": games}


def _invite_friends(context) -> dict | None:
    """The creator of an open game: one button per followed player not in it, not asked."""
    game, user = context["game"], context["request"].user
    if not user.is_authenticated or game.status != Game.Status.OPEN:
        return None
    if game.created_by_id != user.pk or game.seat_of(user) is None or game.is_full():
        return None
    seated = set(game.seats.values_list("user_id", flat=True))
    asked = set(Invitation.objects.filter(game=game).values_list("invitee_id", flat=True))
    friends = [f for f in relations.following(user) if f.pk not in seated | asked]
    if not friends:
        return None
    return {"friends": friends}


def register() -> None:
    blocks = Block._meta.db_table
    # Blocks are only ever added or lifted (deleted): count and highest id cover them.
    extend.add_key_part(f"(SELECT COUNT(*) FROM {blocks} WHERE blocker_id = %(user)s)")
    extend.add_key_part(f"(SELECT MAX(id) FROM {blocks} WHERE blocker_id = %(user)s)")
    extend.add_chat_filter(without_blocked)
    extend.add_guard("join", refuse_join)
    extend.add_guard("invite", refuse_invite)
    extend.add_part("lobby", "social/_friends_games.html", _friends_games)
    extend.add_part("open-game", "social/_invite_friends.html", _invite_friends, order=110)
