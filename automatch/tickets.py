"""Posting, showing and withdrawing tickets, and the counts the lobby shows.

Plain functions, as ``games.play``'s: views only translate. Matching them is
``automatch.seating``; the tickets' rules for fitting are ``automatch.matching``.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games import extend, registry
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


def looking(now=None) -> list[tuple[str, int]]:
    """How many players are looking, per title (map), by name: the lobby's count."""
    now = now or timezone.now()
    rows = (
        Ticket.objects.filter(status=Ticket.Status.OPEN, expires_at__gt=now)
        .values("kind", "options", "user_id")
        .distinct()
    )
    players: dict[str, set[int]] = defaultdict(set)
    for row in rows:
        players[title_of(row["kind"], row["options"])].add(row["user_id"])
    return sorted((title, len(ids)) for title, ids in players.items())


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


def matched_game(user, ticket_ids: list[int]):
    """The game one of the player's ``ticket_ids`` was matched into (the newest), or None."""
    ticket = (
        Ticket.objects.filter(
            user=user, pk__in=ticket_ids, status=Ticket.Status.MATCHED, game__isnull=False
        )
        .select_related("game")
        .order_by("-closed_at", "-pk")
        .first()
    )
    return ticket.game if ticket else None
