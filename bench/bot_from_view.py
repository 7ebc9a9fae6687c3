"""What deciding from a view costs: the computer players on the real state
(``bots.choose``, as the site's own seats decide) against the same players on the
seat's view alone (``bots.choose_from_view``, as a program playing through the API
decides: the engine rebuilds a position from the view, ``from_view``).

Usage: .venv/bin/python bench/bot_from_view.py [--titles siam,tal] [--seats 2,3,4]
       [--positions N] [--playouts N]

Per title and seat count, ``--positions`` positions from seeded random games (every
decision with more than one action offered, spread over the game). For each: the view
as the API sends it (through JSON, not timed), then the milliseconds of CPU time
(``time.process_time``) of ``from_view`` alone, of ``greedy`` from the state and from
the view, and of ``strong`` at ``--playouts`` playouts without a clock from each (the
site's budget adds a clock of 1 s). Medians and 90th percentiles; and how many
decisions from the view differ from those on the state (none is expected: the
strengths search samples drawn alike from either). Some 10-15 s on one core with
the defaults (``make bench`` runs them).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots  # noqa: E402
from bots.common import pick_random  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402

ENGINES = {"siam": SIAM, "tal": TAL}


def positions(engine: Any, seats: int, count: int) -> list[tuple[Any, int]]:
    """(state, seat to decide) at ``count`` decisions of random games, spread over them."""
    found: list[tuple[Any, int]] = []
    game = 0
    while len(found) < count:
        rng = random.Random(1000 * seats + game)
        state = engine.setup(seats, {}, 1000 * seats + game)
        decisions: list[tuple[Any, int]] = []
        while engine.result(state) is None:
            seat = min(engine.active_seats(state))
            actions = engine.legal_actions(state, seat)
            if len(actions) > 1:
                decisions.append((state, seat))
            state = engine.apply(state, seat, pick_random(actions, rng))
        step = max(1, len(decisions) // 8)
        found += decisions[::step][:8]
        game += 1
    return found[:count]


def cpu_ms(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    out = work()
    return (time.process_time() - start) * 1000, out


def figures(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):8.2f} {p90:8.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--titles", default="siam,tal")
    parser.add_argument("--seats", default="2,3,4")
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--playouts", type=int, default=100)
    args = parser.parse_args()
    budget = bots.Budget(seconds=None, playouts=args.playouts)
    print(f"ms of CPU a decision (median, p90); strong at {args.playouts} playouts, no clock")
    print(f"{'title':5} {'seats':>5} {'what':28} {'median':>8} {'p90':>8}")
    for title in args.titles.split(","):
        engine = ENGINES[title]
        for seats in map(int, args.seats.split(",")):
            times: dict[str, list[float]] = {}
            differ = 0
            for n, (state, seat) in enumerate(positions(engine, seats, args.positions)):
                view = json.loads(json.dumps(engine.view(state, seat)))
                salt = f"bench:{n}"
                ms, _ = cpu_ms(partial(engine.from_view, view, seat, random.Random(n)))
                times.setdefault("from_view alone", []).append(ms)
                for strength in ("greedy", "strong"):
                    options = {"budget": budget, "salt": salt}
                    on_state, a = cpu_ms(
                        partial(bots.choose, engine, state, seat, strength, **options)
                    )
                    on_view, b = cpu_ms(
                        partial(bots.choose_from_view, engine, view, seat, strength, **options)
                    )
                    times.setdefault(f"{strength} from the state", []).append(on_state)
                    times.setdefault(f"{strength} from the view", []).append(on_view)
                    differ += a != b
            for what, values in times.items():
                print(f"{title:5} {seats:5d} {what:28} {figures(values)}")
            print(f"{title:5} {seats:5d} {'decisions that differ':28} {differ:8d}")


if __name__ == "__main__":
    main()
