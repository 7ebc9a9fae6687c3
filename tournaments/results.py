"""From a tournament's tables to standings: what the pure modules (``pairing``) are fed."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from .models import Entrant, Round, Table, Tournament
from .pairing import standings, swiss


def played(tables) -> list[standings.Played]:
    """The decided tables that were played or forfeited (not byes)."""
    return [
        standings.Played(
            tuple(t.seating), t.point_values(), tuple(float(s) for s in t.scores or ())
        )
        for t in tables
        if t.done and t.kind != Table.Kind.BYE and t.points
    ]


def byes(tables) -> list[tuple[int, Fraction]]:
    return [(t.seating[0], t.point_values()[0]) for t in tables if t.kind == Table.Kind.BYE]


def seeds(entrants) -> dict[int, int]:
    return {e.pk: e.seed or 10**6 + e.pk for e in entrants}


def main_tables(tournament: Tournament, upto: int | None = None) -> list[Table]:
    tables = Table.objects.filter(tournament=tournament, round__stage=Round.Stage.MAIN)
    if upto is not None:
        tables = tables.filter(round__number__lte=upto)
    return list(tables.select_related("round"))


def group_standings(
    tournament: Tournament, entrants: list[Entrant], tables: list[Table]
) -> dict[int | None, list[standings.Row]]:
    """The standings of each group (Swiss: one, under None), from the main stage's tables."""
    members: dict[int | None, list[Entrant]] = defaultdict(list)
    for e in entrants:
        if e.status == Entrant.Status.LEFT_OUT:
            continue
        group = e.group if tournament.format == Tournament.Format.ROUND_ROBIN else None
        members[group].append(e)
    seed = seeds(entrants)
    games, free = played(tables), byes(tables)
    return {
        group: standings.standings([e.pk for e in people], seed, games, free, tournament.tiebreaks)
        for group, people in sorted(members.items(), key=lambda item: (item[0] is None, item[0]))
    }


def swiss_players(tournament: Tournament, entrants: list[Entrant]) -> list[swiss.Player]:
    """The entrants still playing, as the Swiss pairing sees them before the next round."""
    tables = main_tables(tournament)
    [rows] = group_standings(tournament, entrants, tables).values() or [[]]
    playing = {e.pk for e in entrants if e.playing}
    order = [row for row in rows if row.entrant in playing]
    met: dict[int, set[int]] = defaultdict(set)
    seats: dict[int, list[int]] = defaultdict(lambda: [0] * tournament.table_size)
    last: dict[int, int] = {}
    had_bye: set[int] = set()
    for table in sorted(tables, key=lambda t: (t.round.number, t.number)):
        if table.kind == Table.Kind.BYE:
            had_bye.add(table.seating[0])
            continue
        for seat, entrant in enumerate(table.seating):
            met[entrant].update(m for m in table.seating if m != entrant)
            if table.kind == Table.Kind.GAME:
                seats[entrant][seat] += 1
                last[entrant] = seat
    return [
        swiss.Player(
            id=row.entrant,
            score=row.points,
            rank=rank,
            met=frozenset(met[row.entrant]),
            had_bye=row.entrant in had_bye,
            seats=tuple(seats[row.entrant]),
            last_seat=last.get(row.entrant),
        )
        for rank, row in enumerate(order)
    ]
