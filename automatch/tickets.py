"""Posting, showing and withdrawing tickets, and the counts the lobby shows.

Plain functions, as ``games.play``'s: views only translate. Matching them is
``automatch.seating``; the tickets' rules for fitting are ``automatch.matching``.
"""

from __future__ import annotations

import logging
import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games import clock, extend, registry
from games.play import PlayError, refuse_blocked

from .models import Ticket

logger = logging.getLogger(__name__)

# Open tickets a player may hold at once (over all titles).
MAX_OPEN_TICKETS = 5
# What the task that matches a new ticket is called (``automatch.tasks``).
MATCH_TASK = "automatch.tasks.match_tickets"


@dataclass(frozen=True)
class Wish:
    """What a ticket asks for, as the form cleaned it."""

    kind: str
    options: dict
    player_counts: list[int]
    time_limit_days: int
    rated: bool
    min_rating: int | None
    max_rating: int | None
    lapse_days: int
    # Hours after which computer players may fill the table (None: never).
    computers_after_hours: int | None = None
    computer_strength: str = ""
    # A named pace of banks (games.clock.paces); "": the time per move.
    pace: str = ""


def post(user, wish: Wish) -> Ticket:
    """A new open ticket, matched at once (after the commit) if others fit it."""
    refuse_blocked(user)
    try:
        kind = registry.get(wish.kind)
    except KeyError:
        raise PlayError(_("There is no such game.")) from None
    engine = kind.engine
    counts = sorted(set(wish.player_counts))
    if not counts or any(n < engine.min_players or n > engine.max_players for n in counts):
        raise PlayError(_("Choose the numbers of players this game can have."))
    if wish.time_limit_days not in settings.GAME_TIME_LIMIT_DAYS:
        raise PlayError(_("Choose a time per move the site offers."))
    if wish.pace and clock.pace_for(wish.pace) is None:
        raise PlayError(_("Choose a clock the site offers."))
    low, high = wish.min_rating, wish.max_rating
    if low is not None and high is not None and low > high:
        raise PlayError(_("The lowest rating must not be above the highest."))
    try:
        options = [engine.validate_options(n, wish.options) for n in counts][0]
    except ValueError as error:
        raise PlayError(str(error)) from None
    fill_at = None
    if wish.computers_after_hours is not None:
        computers = extend.computer_players()
        known = {strength for strength, _name, _about in computers.strengths} if computers else ()
        if wish.computer_strength not in known:
            raise PlayError(_("Unknown strength of a computer player."))
        fill_at = timezone.now() + timedelta(hours=wish.computers_after_hours)
    now = timezone.now()
    with transaction.atomic():
        # The player's row lock: two posts at once cannot both pass the count.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Ticket.objects.filter(user=user, status=Ticket.Status.OPEN).count() >= (
            MAX_OPEN_TICKETS
        ):
            raise PlayError(
                _("You are looking for %(n)d games already: withdraw one first.")
                % {"n": MAX_OPEN_TICKETS}
            )
        ticket = Ticket.objects.create(
            user=user,
            kind=wish.kind,
            options=options,
            player_counts=counts,
            time_limit_days=wish.time_limit_days,
            pace=wish.pace,
            rated=wish.rated,
            min_rating=low,
            max_rating=high,
            fill_at=fill_at,
            computer_strength=wish.computer_strength if fill_at else "",
            expires_at=now + timedelta(days=wish.lapse_days),
        )
        transaction.on_commit(lambda: queue_matching(wish.kind))
    return ticket


def queue_matching(kind: str | None = None) -> None:
    """Ask a worker to match the open tickets (of ``kind``); never fails the change
    that asks (the beat task matches them anyway)."""
    try:
        current_app.signature(MATCH_TASK, args=(kind,)).delay()
    except Exception:
        logger.warning("could not queue %s for %s", MATCH_TASK, kind, exc_info=True)


def withdraw(ticket_id: int, user) -> Ticket:
    """Withdraw the player's own open ticket; any other ticket is not theirs to touch."""
    with transaction.atomic():
        ticket = (
            Ticket.objects.select_for_update().filter(pk=ticket_id, user=user).first()
            if user.is_authenticated
            else None
        )
        if ticket is None:
            raise PlayError(_("There is no such ticket."), 404)
        if ticket.status != Ticket.Status.OPEN:
            raise PlayError(_("This ticket is not open any more."), 409)
        ticket.status = Ticket.Status.WITHDRAWN
        ticket.closed_at = timezone.now()
        ticket.save(update_fields=["status", "closed_at"])
    return ticket


def lapse_due(now=None) -> int:
    """Close the open tickets whose days are over; how many."""
    now = now or timezone.now()
    return Ticket.objects.filter(status=Ticket.Status.OPEN, expires_at__lte=now).update(
        status=Ticket.Status.LAPSED, closed_at=now
    )


def title_of(kind: str, options: dict) -> str:
    """The game a ticket looks for, by name in the reader's language (the map's name
    for a title with maps: King of Saba is not King of Siam)."""
    try:
        engine = registry.get(kind).engine
    except KeyError:
        return kind
    variant_name = getattr(engine, "variant_name", None)
    return gettext(variant_name(options) if variant_name else engine.name)


@dataclass(frozen=True)
class Looking:
    """The lobby's count: (title, players looking) by title, and whether the viewer is
    one of them."""

    counts: list[tuple[str, int]]
    mine: bool


def looking(user=None, now=None) -> Looking:
    """How many players are looking, per title (map), by name, in one query. (A player
    looking for one title with two sets of options counts twice.)"""
    now = now or timezone.now()
    me = user.pk if user is not None and user.is_authenticated else None
    rows = (
        Ticket.objects.filter(status=Ticket.Status.OPEN, expires_at__gt=now)
        .values("kind", "options")
        .annotate(n=Count("user", distinct=True), mine=Count("pk", filter=Q(user_id=me)))
        .order_by()
    )
    players: dict[str, int] = defaultdict(int)
    mine = False
    for row in rows:
        players[title_of(row["kind"], row["options"])] += row["n"]
        mine = mine or row["mine"] > 0
    return Looking(sorted(players.items()), mine)


def open_tickets(user) -> list[Ticket]:
    """The player's open tickets, oldest first, each with its ``title``."""
    tickets = list(
        Ticket.objects.filter(
            user=user, status=Ticket.Status.OPEN, expires_at__gt=timezone.now()
        ).order_by("created_at", "pk")
    )
    for ticket in tickets:
        ticket.title = title_of(ticket.kind, ticket.options)
    return tickets


def matched_game(user, ticket_ids: list[int], since=None):
    """The game the player's newest ticket among ``ticket_ids``, or matched since
    ``since``, went to; or None."""
    which = Q(pk__in=ticket_ids)
    if since is not None:
        which |= Q(closed_at__gte=since)
    ticket = (
        Ticket.objects.filter(which, user=user, status=Ticket.Status.MATCHED, game__isnull=False)
        .select_related("game")
        .order_by("-closed_at", "-pk")
        .first()
    )
    return ticket.game if ticket else None


def stamp(moment=None) -> str:
    """A moment as a page's watcher sends it back (``parse_stamp``): seconds since 1970."""
    # Rounded down: a watcher never asks from a moment after the one it was given.
    return f"{math.floor((moment or timezone.now()).timestamp() * 1000) / 1000:.3f}"


def parse_stamp(text: str):
    """The moment of ``stamp``, or None for anything else."""
    try:
        seconds = float(text)
    except (TypeError, ValueError):
        return None
    if not 0 <= seconds < 1e11:  # also no NaN or infinity
        return None
    return datetime.fromtimestamp(seconds, tz=UTC)
