"""Following and blocking players: plain functions, the views only translate.

Blocking ends both players' follows of each other and declines the invitations the
blocked player sent the blocker; from then on the guards (``social.frame``) keep the
blocked player out of the blocker's games and invitations, and the chat filter keeps
their words from the blocker's pages.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import Game
from lobby.models import Invitation

from .models import Block, Follow


class Refused(Exception):
    """A request the site refuses, with the reason in the reader's language."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _other(user, username) -> object:
    """The active person named ``username``, who is not ``user``."""
    if not isinstance(username, str) or not username.strip():
        raise Refused(_("Type the user name of a player."))
    other = (
        get_user_model()
        .objects.filter(username__iexact=username.strip(), is_active=True, is_bot=False)
        .first()
    )
    if other is None:
        raise Refused(_("There is no player with this user name."), 404)
    if other.pk == user.pk:
        raise Refused(_("That is you."))
    return other


def follow(user, username) -> object:
    other = _other(user, username)
    if Block.objects.filter(blocker=user, blocked=other).exists():
        raise Refused(_("You blocked %(name)s. Unblock them first.") % {"name": other.name}, 409)
    if Block.objects.filter(blocker=other, blocked=user).exists():
        raise Refused(_("You cannot follow this player."), 403)
    Follow.objects.get_or_create(follower=user, followed=other)
    return other


def unfollow(user, username) -> object:
    other = _other(user, username)
    Follow.objects.filter(follower=user, followed=other).delete()
    return other


def block(user, username) -> object:
    other = _other(user, username)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(
            Q(follower=user, followed=other) | Q(follower=other, followed=user)
        ).delete()
        # An invitation they sent before would still wait on "My games".
        Invitation.objects.filter(
            invited_by=other, invitee=user, status=Invitation.Status.PENDING
        ).update(status=Invitation.Status.DECLINED)
    return other


def unblock(user, username) -> object:
    other = _other(user, username)
    Block.objects.filter(blocker=user, blocked=other).delete()
    return other


def following(user) -> list:
    """The players ``user`` follows, by name."""
    ids = Follow.objects.filter(follower=user).values("followed_id")
    return sorted(get_user_model().objects.filter(pk__in=ids, is_active=True), key=_by_name)


def blocked(user) -> list:
    ids = Block.objects.filter(blocker=user).values("blocked_id")
    return sorted(get_user_model().objects.filter(pk__in=ids), key=_by_name)


def _by_name(user) -> str:
    return user.name.casefold()


def is_following(user, other) -> bool:
    return Follow.objects.filter(follower=user, followed=other).exists()


def has_blocked(user, other) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()


def blocked_ids(user) -> list[int]:
    return list(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


FRIENDS_GAMES = 10


def friends_games(user) -> list[Game]:
    """The public open and running games of the players ``user`` follows, the latest
    activity first (at most FRIENDS_GAMES), with their seats and players."""
    from games.lists import WITH_PLAYERS

    followed = Follow.objects.filter(follower=user).values("followed_id")
    # The followed players' seats that have not ended (seat_user_ended), their games.
    games = (
        Game.objects.filter(
            seats__user__in=followed,
            seats__ended_at=None,
            seats__vacated=False,
            status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
            private=False,
        )
        .distinct()
        .order_by("-created_at", "-id")
    )
    return list(games.prefetch_related(WITH_PLAYERS)[:FRIENDS_GAMES])
