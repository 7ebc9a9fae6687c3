"""Figures for the end-of-game review (``review.story``): what a finished game's story
costs to work out from its record (a public view per position), which is why it is kept
in the cache. Plain engines, no database: the replay the review makes on a cold cache.

Usage: .venv/bin/python bench/review_story.py [games per title]
"""

import random
import sys
import time

import standalone

standalone.setup()

from siam import review as siam_review  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from tal import review as tal_review  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402


def record(engine, players, seed):
    rng, state, moves = random.Random(seed), engine.setup(players, {}, seed), []
    while engine.result(state) is None:
        seat = min(engine.active_seats(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
        moves.append((seat, action))
    return moves


def views(engine, players, seed, moves):
    state = engine.setup(players, {}, seed)
    yield engine.view(state, None)
    for seat, action in moves:
        state = engine.apply(state, seat, action)
        yield engine.view(state, None)


def main(games: int) -> None:
    for name, engine, tell, players in (
        ("King of Siam", SIAM, siam_review.story, 3),
        ("Tal der Koenige", TAL, tal_review.story, 3),
    ):
        records = [(seed, record(engine, players, seed)) for seed in range(games)]
        start = time.perf_counter()
        for seed, moves in records:
            tell(views(engine, players, seed, moves))
        spent = (time.perf_counter() - start) / games
        positions = sum(len(m) + 1 for _, m in records) / games
        print(f"{name}: {positions:.0f} positions a game, {spent * 1000:.0f} ms a story")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
