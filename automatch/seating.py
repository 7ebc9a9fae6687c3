"""Matching the open tickets and starting their games, each ticket claimed once.

``match_open`` reads the open tickets it can lock (``select_for_update(skip_locked)``
on PostgreSQL: a second matcher running at the same time, on another worker or for
another new ticket, passes over them instead of waiting), asks the pure matcher
(``automatch.matching``) for tables, and starts each table's game through
``games.play`` (create, then join: the start's mails, live updates and computer moves
run as for any game). Each table's tickets are claimed with a conditional UPDATE
(``status='open'``), so a ticket already matched or withdrawn meanwhile makes that
table start nothing (SQLite, which has no row locks, relies on this alone).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation

from games import clock, extend, play, registry

from . import matching, tickets
from .models import Ticket

logger = logging.getLogger(__name__)

# A run tries again this often when a guard (a block between two players) refuses a
# table: the refused players are kept apart and the rest matched anew.
MAX_ROUNDS = 5


class _Lost(Exception):
    """A ticket of the table was claimed by another run, or withdrawn, meanwhile."""


def match_open(kind: str | None = None, now=None) -> list:
    """Start every game the open tickets (of ``kind``) make now; the games started."""
    now = now or timezone.now()
    tickets.lapse_due(now)
    started = []
    apart: set[frozenset[int]] = set()
    with transaction.atomic():
        rows = Ticket.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            status=Ticket.Status.OPEN, expires_at__gt=now
        )
        if kind is not None:
            rows = rows.filter(kind=kind)
        by_id = {ticket.pk: ticket for ticket in rows.select_related("user")}
        wants = _wants(by_id.values())
        for _round in range(MAX_ROUNDS):
            refused = False
            for group in matching.match(wants, now, apart):
                try:
                    with transaction.atomic():
                        started.append(_start(group, by_id, now))
                except play.PlayError as error:
                    refused = True
                    users = [by_id[pk].user_id for pk in group.tickets]
                    apart.update(frozenset((a, b)) for a in users for b in users if a < b)
                    logger.info("automatch: table %s refused: %s", group.tickets, error.message)
                except _Lost:
                    pass
            done = {pk for pk, ticket in by_id.items() if ticket.status != Ticket.Status.OPEN}
            wants = [want for want in wants if want.id not in done]
            if not refused:
                break
    return started


def _wants(rows) -> list[matching.Want]:
    rows = list(rows)
    ratings: dict[str, dict[int, int]] = {}
    for kind in {ticket.kind for ticket in rows}:
        ratings[kind] = extend.ratings(kind, [t.user_id for t in rows if t.kind == kind])
    return [
        matching.Want(
            id=ticket.pk,
            user=ticket.user_id,
            table=_table(ticket),
            counts=frozenset(ticket.player_counts),
            rating=ratings[ticket.kind][ticket.user_id],
            low=ticket.min_rating,
            high=ticket.max_rating,
            since=(ticket.created_at, ticket.pk),
            fill_at=ticket.fill_at,
        )
        for ticket in rows
    ]


def _table(ticket: Ticket) -> tuple:
    """What tickets must share to sit at one table."""
    options = tuple(sorted((str(k), repr(v)) for k, v in ticket.options.items()))
    # A bank's pace decides the clock alone: tickets of one pace fit whatever per-move
    # time their forms still held.
    pace = ("pace", ticket.pace) if ticket.pace else ("days", ticket.time_limit_days)
    return (ticket.kind, options, pace, ticket.rated)


def _start(group: matching.Group, by_id: dict[int, Ticket], now):
    """Claim the table's tickets and start its game, or raise (nothing is kept)."""
    claimed = Ticket.objects.filter(pk__in=group.tickets, status=Ticket.Status.OPEN).update(
        status=Ticket.Status.MATCHED, closed_at=now
    )
    if claimed != len(group.tickets):
        raise _Lost()
    seated = [by_id[pk] for pk in group.tickets]
    first = seated[0]
    kind = registry.get(first.kind)
    # The title in the language of the player who waited longest, as a creator's.
    with translation.override(getattr(first.user, "language", "") or settings.LANGUAGE_CODE):
        title = tickets.title_of(first.kind, first.options)
    game = play.create_game(
        first.user,
        kind,
        title=title,
        players=group.players,
        options=first.options,
        time_limit_days=first.time_limit_days,
        pace=clock.pace_for(first.pace),
        private=False,
        computer_players=[first.computer_strength] * group.computers,
        rated=first.rated and not group.computers,
    )
    for ticket in seated[1:]:
        play.join(game.pk, ticket.user)
    Ticket.objects.filter(pk__in=group.tickets).update(game=game)
    for ticket in seated:
        ticket.status, ticket.game = Ticket.Status.MATCHED, game
    return game
