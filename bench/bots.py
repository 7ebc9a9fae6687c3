"""Win rates and decision times of the computer players (``bots``), per title.

Usage: .venv/bin/python bench/bots.py [--games N] [--budget SECONDS] [--playouts N]
       [--titles siam,tal] [--pairs greedy-random,strong-random,strong-greedy]

Two-player games; the first-named bot takes seat 0 in half the games and seat
1 in the other half. A shared win counts half. The strong bot thinks for
``--budget`` seconds a move (default 0.8, the site's budget) or ``--playouts``
playouts, whichever ends first. A full run (200 games per pair and title at
the default budget) takes hours on a 2-core machine: pass a smaller budget or
fewer games and say so when quoting the figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots  # noqa: E402
from bots.arena import play_game  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402

ENGINES = {"siam": SIAM, "tal": TAL}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.8)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--titles", default="siam,tal")
    parser.add_argument("--pairs", default="greedy-random,strong-random,strong-greedy")
    args = parser.parse_args()
    budget = bots.Budget(seconds=args.budget, playouts=args.playouts)
    print(f"games per row: {args.games}; strong budget: {budget}")
    print(f"{'title':6} {'pair':16} {'win %':>6} {'games':>5} {'median s/move':>14} {'s/game':>7}")
    for title in args.titles.split(","):
        engine = ENGINES[title]
        for pair in args.pairs.split(","):
            first, second = pair.split("-")
            score = 0.0
            times: list[float] = []
            start = time.perf_counter()
            for game in range(args.games):
                strengths = [first, second] if game % 2 == 0 else [second, first]
                played = play_game(engine, strengths, 10_000 + game, budget=budget)
                seat = strengths.index(first)
                winners = played.result["winners"]
                if seat in winners:
                    score += 1.0 / len(winners)
                times.extend(played.times[seat])
            elapsed = time.perf_counter() - start
            median = statistics.median(times) if times else 0.0
            print(
                f"{title:6} {pair:16} {100 * score / args.games:6.1f} {args.games:5d} "
                f"{median:14.4f} {elapsed / args.games:7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
