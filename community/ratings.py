"""Ratings with openskill's Plackett-Luce model (Weng-Lin).

Why openskill and not Elo/Glicko: the titles are played by 2 to 5 players at
once, and the 4-player King of Siam is two teams of two. Plackett-Luce rates
a whole ranking of teams in one update, and it is a published,
patent-free method with a maintained library.

The number shown is ``1000 + 40 * (mu - 3 * sigma)``: the conservative
estimate (it only rises when the system is sure), on an Elo-like scale where
a newcomer starts at 1000.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3

_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def shown_rating(mu: float, sigma: float) -> int:
    return round(1000 + 40 * (mu - 3 * sigma))


def teams_and_ranks(
    seats: Sequence[int],
    result: dict,
    teammates: Callable[[int], list[int]],
) -> tuple[list[list[int]], list[int]]:
    """Group ``seats`` into teams and give each team its place (0 = won, ties allowed).

    Every winning team shares first place; the others are placed by their best
    seat in the result's ranking. A resigned or timed-out seat is simply a
    loser there (``play._losing_result``), so both count as losses.
    """
    present = set(seats)
    teams: list[list[int]] = []
    for seat in sorted(present):
        team = sorted(present & set(teammates(seat)) | {seat})
        if team not in teams:
            teams.append(team)
    winners = set(result.get("winners") or [])
    ranking = list(result.get("ranking") or [])

    def place(team: list[int]) -> int:
        if winners & set(team):
            return 0
        spots = [ranking.index(s) for s in team if s in ranking]
        return 1 + (min(spots) if spots else len(ranking))

    return teams, [place(team) for team in teams]


def rate(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) for every member of every team, after a game ranked ``ranks``."""
    rated = _MODEL.rate(
        [[_MODEL.create_rating([mu, sigma]) for mu, sigma in team] for team in teams],
        ranks=ranks,
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]
