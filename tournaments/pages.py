"""What a tournament's page shows: its standings (per group, after any round), its rounds
with every table and game, and what the viewer may do."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Prefetch

from games.models import Seat

from . import results, running
from .models import Entrant, Round, Table, Tournament


@dataclass
class Line:
    """One row of a standings table, ready to draw."""

    place: int
    entrant: Entrant
    points: Fraction
    games: int
    tiebreaks: list[Fraction]
    score: float


@dataclass
class Group:
    number: int | None
    lines: list[Line] = field(default_factory=list)


def standings_tables(tournament: Tournament, entrants: list[Entrant], after: int | None):
    """The standings of each group, from the main stage's rounds up to ``after``."""
    by_pk = {e.pk: e for e in entrants}
    tables = results.main_tables(tournament, after)
    groups = results.group_standings(tournament, entrants, tables)
    drawn = []
    for number, rows in groups.items():
        group = Group(number)
        for row in rows:
            group.lines.append(
                Line(
                    row.place,
                    by_pk[row.entrant],
                    row.points,
                    row.games + row.byes,
                    [getattr(row, name) for name in tournament.tiebreaks],
                    row.score,
                )
            )
        drawn.append(group)
    return drawn


def rounds_with_tables(tournament: Tournament, entrants: list[Entrant]) -> list[Round]:
    by_pk = {e.pk: e for e in entrants}
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user"))
    tables = (
        Table.objects.filter(tournament=tournament)
        .select_related("game")
        .prefetch_related(seats)
        .order_by("round__number", "number")
    )
    per_round = defaultdict(list)
    for table in tables:
        points = table.point_values()
        table.places = [
            {"entrant": by_pk.get(pk), "points": points[i] if points else None}
            for i, pk in enumerate(table.seating)
        ]
        per_round[table.round_id].append(table)
    rounds = list(tournament.round_set.order_by("-number"))
    for round_ in rounds:
        round_.table_list = per_round[round_.pk]
        round_.sitting_out = sitting_out(tournament, round_, entrants)
    return rounds


def sitting_out(tournament: Tournament, round_: Round, entrants: list[Entrant]) -> list[Entrant]:
    """Who has a bye in a round of a round robin: planned at no table of it. (A Swiss
    round's bye is a table of its own, worth a point; a round robin's is worth nothing.)
    Nobody who had left the tournament before the round."""
    if tournament.format != Tournament.Format.ROUND_ROBIN or round_.stage != Round.Stage.MAIN:
        return []
    if not 1 <= round_.number <= len(tournament.plan):
        return []
    planned = {pk for round_plan in tournament.plan for block in round_plan for pk in block}
    seated = {pk for block in tournament.plan[round_.number - 1] for pk in block}
    return [
        e
        for e in entrants
        if e.pk in planned - seated
        and (e.left_in_round is None or e.left_in_round >= round_.number)
    ]


def context(tournament: Tournament, user, after: int | None) -> dict:
    entrants = list(tournament.entrants.select_related("user"))
    mine = (
        next((e for e in entrants if e.user_id == user.pk), None) if user.is_authenticated else None
    )
    main_rounds = tournament.round_set.filter(stage=Round.Stage.MAIN).count()
    if after is not None and not 1 <= after <= main_rounds:
        after = None
    open_for_entries = tournament.status == Tournament.Status.SIGNUP
    return {
        "tournament": tournament,
        "entrants": entrants,
        "mine": mine,
        "groups": standings_tables(tournament, entrants, after)
        if tournament.status != Tournament.Status.SIGNUP
        else [],
        "after": after,
        "main_rounds": range(1, main_rounds + 1),
        "rounds": rounds_with_tables(tournament, entrants),
        "can_enter": open_for_entries
        and user.is_authenticated
        and not user.is_bot
        and mine is None
        and len(entrants) < tournament.max_entrants,
        "can_withdraw": mine is not None
        and (open_for_entries or (tournament.status == "running" and mine.playing)),
        "can_start": open_for_entries
        and user.is_authenticated
        and (tournament.created_by_id == user.pk or running.is_moderator(user)),
        "moderator": running.is_moderator(user),
        "tiebreak_names": tournament.tiebreaks,
    }
