"""Points per game and the standings of a group, with their tiebreaks.

Points: each game is worth one point, split among its winners (a shared win, a team);
a game nobody won (a draw, or one stopped without a result) splits it among everyone.
Running out of time is a loss: a late seat scores nothing, and the point goes to the
others even where the game was aborted for it or a computer won in the late seat.

The standings order by points, then (``tiebreaks``) Buchholz (the points of everyone
met, each game's tablemates averaged) and/or Sonneborn–Berger (the same, each game
weighted by the points scored in it), then head-to-head (points scored in the games
among the players still tied), then the title's own score (summed over the games:
a title's points where its result has them, else places: two for first of three...),
then the seeding (the rating at the start).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

BUCHHOLZ = "buchholz"
SONNEBORN_BERGER = "sonneborn_berger"


@dataclass(frozen=True)
class Played:
    """One table's game as the standings see it."""

    seats: tuple[int, ...]  # entrant ids in seat order
    points: tuple[Fraction, ...]
    scores: tuple[float, ...]  # the title's own score, per seat


def game_points(players: int, winners: Iterable[int], late: Iterable[int]) -> tuple[Fraction, ...]:
    """Each seat's points from a game's winners and its late seats (see the module)."""
    late = set(late)
    present = [s for s in range(players) if s not in late]
    gaining = [s for s in winners if s not in late] or present
    share = Fraction(1, len(gaining)) if gaining else Fraction(0)
    return tuple(share if s in gaining else Fraction(0) for s in range(players))


def title_scores(players: int, result: dict | None) -> tuple[float, ...]:
    """The title's own score per seat: its ``details.points`` where the result has them
    (Tal der Könige), else places from the ranking (winners first)."""
    result = result or {}
    points = (result.get("details") or {}).get("points")
    if (
        isinstance(points, list)
        and len(points) == players
        and all(isinstance(p, int | float) and not isinstance(p, bool) for p in points)
    ):
        return tuple(float(p) for p in points)
    winners = set(result.get("winners") or [])
    ranking = list(result.get("ranking") or [])
    scores = []
    for seat in range(players):
        if seat in winners:
            scores.append(float(players - 1))
        elif seat in ranking:
            scores.append(float(max(players - 1 - ranking.index(seat), 0)))
        else:
            scores.append(0.0)
    return tuple(scores)


@dataclass
class Row:
    entrant: int
    seed: int
    points: Fraction = Fraction(0)
    games: int = 0
    byes: int = 0
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    score: float = 0.0
    place: int = 0


def standings(
    entrants: Sequence[int],
    seeds: dict[int, int],
    games: Sequence[Played],
    byes: Sequence[tuple[int, Fraction]] = (),
    tiebreaks: Sequence[str] = (BUCHHOLZ, SONNEBORN_BERGER),
) -> list[Row]:
    """The rows of ``entrants`` in order, places from 1 (see the module's docstring)."""
    rows = {e: Row(e, seeds.get(e, 10**9)) for e in entrants}
    for game in games:
        for entrant, points, score in zip(game.seats, game.points, game.scores, strict=True):
            if entrant in rows:
                rows[entrant].points += points
                rows[entrant].score += score
                rows[entrant].games += 1
    for entrant, points in byes:
        if entrant in rows:
            rows[entrant].points += points
            rows[entrant].byes += 1
    total = {e: row.points for e, row in rows.items()}
    for game in games:
        for i, entrant in enumerate(game.seats):
            if entrant not in rows:
                continue
            mates = [total.get(m, Fraction(0)) for j, m in enumerate(game.seats) if j != i]
            if not mates:
                continue
            met = sum(mates, Fraction(0)) / len(mates)
            rows[entrant].buchholz += met
            rows[entrant].sonneborn_berger += game.points[i] * met

    def first_key(row: Row) -> tuple:
        return (-row.points, *(-getattr(row, name) for name in tiebreaks))

    ordered = sorted(rows.values(), key=lambda r: (first_key(r), r.seed, r.entrant))
    result: list[Row] = []
    for _key, tied in groupby(ordered, key=first_key):
        tied = list(tied)
        if len(tied) > 1:
            members = {row.entrant for row in tied}
            for row in tied:
                row.head_to_head = _head_to_head(row.entrant, members, games)
            tied.sort(key=lambda r: (-r.head_to_head, -r.score, r.seed, r.entrant))
        result.extend(tied)
    for place, row in enumerate(result, start=1):
        row.place = place
    return result


def _head_to_head(entrant: int, tied: set[int], games: Sequence[Played]) -> Fraction:
    """Points ``entrant`` scored in games with another of ``tied`` at the table."""
    scored = Fraction(0)
    for game in games:
        if entrant in game.seats and any(m in tied and m != entrant for m in game.seats):
            scored += game.points[game.seats.index(entrant)]
    return scored
