"""Reading tournaments for the pages of others: the lobby, My games, a game's header,
and notify's mail at a round's start."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count
from django.utils import timezone

from games.models import Game

from .models import Entrant, Ladder, LadderGame, Round, Table, Tournament


@dataclass(frozen=True)
class Competition:
    """What a game is part of, as its page and its mail say it."""

    name: str
    url: str
    round: int | None = None  # None: a ladder game
    finals: bool = False


def competition_of(game: Game) -> Competition | None:
    table = Table.objects.filter(game=game).select_related("tournament", "round").first()
    if table is not None:
        return Competition(
            table.tournament.name,
            table.tournament.get_absolute_url(),
            table.round.number,
            table.round.stage == table.round.Stage.FINALS,
        )
    ladder = LadderGame.objects.filter(game=game).select_related("ladder").first()
    if ladder is not None:
        return Competition(ladder.ladder.display_name, ladder.ladder.get_absolute_url())
    return None


def open_for_entries():
    """The tournaments open for entries, soonest closing first, each with its number of
    entries (``entrant_count``), counted in the same query."""
    return list(
        Tournament.objects.filter(status=Tournament.Status.SIGNUP, signup_closes__gt=timezone.now())
        .annotate(entrant_count=Count("entrants"))
        .order_by("signup_closes", "pk")[:20]
    )


def active_ladders():
    return list(Ladder.objects.filter(active=True))


def tournaments_of(user) -> list[Entrant]:
    """The player's entries in tournaments not over, with each one's current round."""
    entries = list(
        Entrant.objects.filter(
            user=user,
            tournament__status__in=[Tournament.Status.SIGNUP, Tournament.Status.RUNNING],
        ).select_related("tournament")
    )
    latest = {}
    rounds = Round.objects.filter(tournament_id__in=[e.tournament_id for e in entries])
    for round_ in rounds.order_by("number"):  # one query for all: the last one stays
        latest[round_.tournament_id] = round_
    for entry in entries:
        entry.current_round = latest.get(entry.tournament_id)
    return entries
