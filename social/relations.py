"""Following and blocking players: plain functions, the views only translate.

Blocking ends both players' follows of each other and declines the invitations the
blocked player sent the blocker; from then on the guards (``social.frame``) keep the
blocked player out of the blocker's games and invitations, and the chat filter keeps
their words from the blocker's pages.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from games.models import Game, Seat
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


def standing(user, other) -> tuple[bool, bool]:
    """Whether ``user`` follows ``other``, and whether they blocked them: one query."""
    row = (
        get_user_model()
        .objects.filter(pk=other.pk)
        .annotate(
            following=Exists(Follow.objects.filter(follower=user, followed=OuterRef("pk"))),
            blocked=Exists(Block.objects.filter(blocker=user, blocked=OuterRef("pk"))),
        )
        .values_list("following", "blocked")
        .first()
    )
    return (bool(row[0]), bool(row[1])) if row else (False, False)


def blocked_ids(user) -> list[int]:
    return list(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


FRIENDS_GAMES = 10
FRIENDS_GAMES_COLUMNS = (
    "game_id",
    "user_id",
    "number",
    "game__title",
    "game__kind",
    "game__rules_version",
    "game__options",
    "game__status",
    "user__username",
    "user__display_name",
    "user__is_bot",
    "user__last_seen",
    "user__show_online",
)


def friends_games(user) -> list[dict]:
    """The public open and running games of the players ``user`` follows, newest first
    (at most FRIENDS_GAMES), each with the followed players in it: one query over their
    seats that have not ended (the index seat_user_ended), each with its game and player."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    seats = (
        Seat.objects.filter(
            user__in=followed,
            ended_at=None,
            game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
            game__private=False,
        )
        .select_related("game", "user")
        # What the list draws, no more: the rest of three wide rows cost more to convert
        # than the query takes to run.
        .only(*FRIENDS_GAMES_COLUMNS)
        .order_by("-game__created_at", "-game_id", "number")
    )
    found: dict[int, dict] = {}
    for seat in seats[: FRIENDS_GAMES * 4]:  # a game holds at most four of them
        entry = found.setdefault(seat.game_id, {"game": seat.game, "friends": []})
        entry["friends"].append(seat.user)
    return list(found.values())[:FRIENDS_GAMES]
