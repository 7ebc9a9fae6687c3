"""How long the matcher (``automatch.matching.match``) takes over 10,000 open tickets.

Two pools: tickets as players post them (titles, maps, paces, rated or not, player
counts, ratings and ranges drawn at random), and a pool of narrow four-player tickets
(each wants three others within 30 points of its own rating both ways: the searches
are deep, and the tickets left over search their whole pool and find nothing). The
issue's budget: under a second.

    .venv/bin/python bench/automatch.py [--tickets 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from automatch.matching import Want, match  # noqa: E402

TABLES = [
    (title, options, pace, rated)
    for title, options in [
        ("siam", "siam"),
        ("siam", "saba"),
        ("tal", "plain"),
        ("tal", "advanced"),
        ("tal", "expert"),
    ]
    for pace in (1, 3, 7, 14)
    for rated in (True, False)
]


def tickets(count: int, rng: random.Random, start_id: int = 0) -> list[Want]:
    found = []
    for n in range(count):
        rating = int(rng.gauss(1200, 250))
        low = high = None
        if rng.random() < 0.6:
            width = rng.choice([100, 200, 300, 500])
            low, high = rating - width, rating + width
        smallest = rng.choice([2, 2, 2, 3])
        counts = frozenset(range(smallest, rng.choice([smallest, 3, 4]) + 1))
        found.append(
            Want(
                id=start_id + n,
                user=start_id + n,
                table=rng.choice(TABLES),
                counts=counts,
                rating=rating,
                low=low,
                high=high,
                since=start_id + n,
            )
        )
    return found


def timed(wants: list[Want]) -> tuple[float, int]:
    began = time.perf_counter()
    groups = match(wants)
    return time.perf_counter() - began, sum(len(g.tickets) for g in groups)


def leftovers(count: int, rng: random.Random) -> list[Want]:
    """Tickets that are hard to seat: each wants four players within 30 points of its
    own rating."""
    return [
        Want(
            id=n,
            user=n,
            table=rng.choice(TABLES),
            counts=frozenset({4}),
            rating=(rating := int(rng.gauss(1200, 250))),
            low=rating - 30,
            high=rating + 30,
            since=n,
        )
        for n in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tickets", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    fresh = tickets(args.tickets, rng)
    seconds, seated = timed(fresh)
    print(
        f"automatch: {args.tickets:,} fresh open tickets matched in {seconds:.3f} s"
        f" ({seated:,} seated at tables)"
    )
    stale = leftovers(args.tickets, rng)
    seconds, seated = timed(stale)
    print(
        f"automatch: {len(stale):,} narrow four-player tickets matched in {seconds:.3f} s"
        f" ({seated:,} seated)"
    )


if __name__ == "__main__":
    main()
