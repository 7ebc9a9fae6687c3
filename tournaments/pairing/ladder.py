"""The ladder's pairing: players who want another game get one against whoever is
nearest their rating and wants one too.

Each run gives every seeker at most one new table. Seekers are taken in order of
rating; each is seated with the nearest in rating who also seeks, among those they
are not already playing in the ladder and (where anyone else is near enough) not the
opponent of their latest ladder game. Nobody is paired across more than ``max_gap``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Two players this far apart in rating are not paired (they wait for someone nearer).
MAX_GAP = 400


@dataclass(frozen=True)
class Seeker:
    id: int
    rating: int
    # Opponents in the player's running ladder games: no second game with them.
    playing: frozenset[int] = frozenset()
    # The opponents of their latest ladder game: avoided where another is near enough.
    last: frozenset[int] = frozenset()


def pair(seekers: Sequence[Seeker], size: int = 2, max_gap: int = MAX_GAP) -> list[tuple[int, ...]]:
    """Tables of ``size`` from ``seekers``, each as near in rating as can be."""
    pool = sorted(seekers, key=lambda s: (s.rating, s.id))
    tables: list[tuple[int, ...]] = []
    while len(pool) >= size:
        anchor = pool.pop(0)
        table = [anchor]
        for _ in range(size - 1):
            fits = [
                s
                for s in pool
                if all(s.id not in m.playing and m.id not in s.playing for m in table)
                and abs(s.rating - anchor.rating) <= max_gap
            ]
            if not fits:
                break
            chosen = min(fits, key=lambda s, t=tuple(table): _distance(s, t, max_gap))
            pool.remove(chosen)
            table.append(chosen)
        if len(table) == size:
            tables.append(tuple(s.id for s in table))
        else:
            pool.extend(table[1:])
            pool.sort(key=lambda s: (s.rating, s.id))
    return tables


def _distance(seeker: Seeker, table: tuple[Seeker, ...], max_gap: int) -> tuple[int, int, int]:
    """How far ``seeker`` is from the table's first player; meeting the latest opponent
    again counts as ``max_gap`` further."""
    again = any(seeker.id in m.last or m.id in seeker.last for m in table)
    gap = abs(seeker.rating - table[0].rating) + (max_gap if again else 0)
    return (gap, seeker.rating, seeker.id)
