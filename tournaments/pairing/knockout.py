"""Knockout finals: the best of the groups at tables of ``t``; the winner of each table
goes on, until one table is left, whose winner wins the tournament."""

from __future__ import annotations

from collections.abc import Sequence


def sizes(t: int, entrants: int) -> list[int]:
    """How many may play the finals: a power of ``t`` (2, 4, 8, ... or 3, 9, ...), at
    most ``entrants``."""
    found, size = [], t
    while size <= entrants:
        found.append(size)
        size *= t
    return found


def first_round(seeded: Sequence[int], t: int) -> list[tuple[int, ...]]:
    """The tables of the first finals round, the qualifiers in seed order (best first).

    Two-player brackets are the usual ones (1 v 8, 4 v 5, 2 v 7, 3 v 6): the top two can
    meet only in the final. Larger tables are dealt like a snake. Each table is in seat
    order: the better seed takes the first seat.
    """
    n = len(seeded)
    if n % t or n < t:
        raise ValueError(f"{n} qualifiers do not fill tables of {t}")
    tables_count = n // t
    order = _bracket_order(tables_count)
    tables: list[list[int]] = [[] for _ in range(tables_count)]
    for i, entrant in enumerate(seeded):
        lap, pos = divmod(i, tables_count)
        slot = pos if lap % 2 == 0 else tables_count - 1 - pos
        tables[order[slot]].append(entrant)
    return [tuple(table) for table in tables]


def _bracket_order(count: int) -> list[int]:
    """Where seed k's table stands in the bracket, so that seeds 1 and 2 are in opposite
    halves, 1-4 in different quarters, and so on (for a power of two; else in order)."""
    if count & (count - 1):
        return list(range(count))
    positions = [0]
    while len(positions) < count:
        size = len(positions) * 2
        positions = [p for pair in ((p, size - 1 - p) for p in positions) for p in pair]
    # positions[i] = seed at bracket place i; invert it
    where = [0] * count
    for place, seed in enumerate(positions):
        where[seed] = place
    return where


def next_round(winners: Sequence[int], t: int) -> list[tuple[int, ...]]:
    """The winners of the previous round's tables, in bracket order, ``t`` to a table."""
    return [tuple(winners[i : i + t]) for i in range(0, len(winners), t)]


def winner(
    seats: Sequence[int],
    points: Sequence,
    scores: Sequence[float],
    seed: dict[int, int],
) -> int:
    """Who goes on from a table: the most points in its game, then the title's own
    score in it, then the better seed."""
    best = min(
        range(len(seats)),
        key=lambda i: (-points[i], -scores[i], seed.get(seats[i], 10**9)),
    )
    return seats[best]
