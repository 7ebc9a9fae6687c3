"""Bots of players' own: an account a program plays through the API, marked "bot"
wherever names appear. It becomes one before it has played (no game played by hand),
acts only through the API (``api.middleware``), answers challenges (the lobby's
invitations) there, and joins a rated game with people only when the game's creator
challenged it."""

from __future__ import annotations

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games import play
from games.models import Seat
from lobby import invites
from lobby.models import Invitation

from .models import BotAccount


class BotError(Exception):
    pass


CACHE_KEY = "api:bot-account-ids"


def all_bot_ids() -> frozenset[int]:
    """Every bot account's user id, from the cache: the game page's header and every
    signed-in POST ask, and a page's query budget has no room for it. Bot accounts are
    few and made rarely; making or deleting one forgets the set."""
    ids = cache.get(CACHE_KEY)
    if ids is None:
        ids = frozenset(BotAccount.objects.values_list("user_id", flat=True))
        cache.set(CACHE_KEY, ids, 3600)
    return ids


@receiver(post_save, sender=BotAccount)
@receiver(post_delete, sender=BotAccount)
def _forget_bot_ids(sender, **kwargs) -> None:
    cache.delete(CACHE_KEY)  # now, and again once committed (a reader in between)
    transaction.on_commit(lambda: cache.delete(CACHE_KEY))


def is_bot_account(user) -> bool:
    return bool(user.is_authenticated and user.pk in all_bot_ids())


def may_become_bot(user) -> bool:
    """A person's fresh account: no seat ever taken, not the site's own computer player."""
    return not (user.is_bot or user.is_staff or Seat.every.filter(user=user).exists())


def become_bot(user) -> BotAccount:
    with transaction.atomic():
        if not may_become_bot(user):
            raise BotError(_("Only an account that has not played yet can become a bot account."))
        try:
            with transaction.atomic():
                made = BotAccount.objects.create(user=user)
        except IntegrityError:
            raise BotError(_("This account is a bot account already.")) from None
        return made


def set_listed(user, listed: bool) -> bool:
    return bool(BotAccount.objects.filter(user=user).update(listed=listed))


def listed_bots():
    return BotAccount.objects.filter(listed=True, user__is_active=True).select_related("user")


def bot_ids(user_ids) -> set[int]:
    return set(user_ids) & all_bot_ids()


def mark() -> str:
    return format_html('<span class="computer-badge">{}</span>', _("bot"))


def refuse_join(game, user, **facts) -> str | None:
    """The ``join`` guard: a bot account joins a rated game with people only when the
    game's creator challenged it (invited it)."""
    if not is_bot_account(user) or game.computer_played:
        return None  # a person, or a practice game (never rated)
    people = [seat.user_id for seat in game.seats.select_related("user") if not seat.user.is_bot]
    if not set(people) - bot_ids(people):
        return None
    if Invitation.objects.filter(
        game=game, invitee=user, invited_by_id=game.created_by_id
    ).exists():
        return None
    return _("A bot account joins a rated game with people only when its creator challenges it.")


def list_marks(games: list) -> set[int]:
    return bot_ids(seat.user_id for game in games for seat in game.seats.all())


def list_mark(bots: set[int], user_id: int, kind: str) -> str:
    return mark() if user_id in bots else ""


def header_mark(seat) -> str:
    return mark() if is_bot_account(seat.user) else ""


class ListedBots:
    """The create form's challengers (``games.extend.set_challengers``): the listed bots."""

    def choices(self) -> list[tuple[str, str]]:
        return [
            (bot.user.username, f"{bot.user.name} ({_('bot')})")
            for bot in listed_bots().order_by("user__username")
        ]

    def challenge(self, game, by, username: str) -> None:
        if not listed_bots().filter(user__username=username).exists():
            raise play.PlayError(_("This bot does not take challenges."))
        invites.invite(game.pk, by, username)
