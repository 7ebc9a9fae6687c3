"""How fast the strong bot thinks, and a fingerprint of what it decides.

Usage: .venv/bin/python bench/bot_speed.py [--titles tal,siam] [--positions N]
       [--playouts N] [--games N] [--seats N] [--profile FILE]

Per title, for ``--seats`` seats:

- decisions: the strong bot at ``--playouts`` playouts and no clock on
  ``--positions`` positions sampled from greedy-vs-random games (seeded):
  decisions per second and playouts per second (CPU time of this process,
  ``time.process_time``, so other load on the machine counts little);
- at the site's default budget (its clock included), the playouts a
  decision reaches on the same positions (mean and smallest);
- games: ``--games`` whole games strong against greedy at ``--playouts``
  (seeds 10,000 and up, as ``bench/bots.py``): seconds a game.

Every line ends with a fingerprint (a hash of the decisions or of the games'
actions): a change that only makes the bots faster must leave it as it was.
``--profile FILE`` writes a cProfile of the fixed-playout decisions.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots  # noqa: E402
from bots import common  # noqa: E402
from bots.arena import play_game  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402

TITLES = {"siam": SIAM, "tal": TAL}


def positions(engine: Any, seats: int, count: int) -> list[tuple[Any, int]]:
    """Positions with a real choice from seeded greedy-vs-random games, spread over them."""
    rng = random.Random(7)
    out: list[tuple[Any, int]] = []
    game = 0
    while len(out) < count:
        strengths = ["greedy"] + ["random"] * (seats - 1)
        played = play_game(engine, strengths, 20_000 + game)
        state = engine.setup(seats, {}, 20_000 + game)
        states = []
        for seat, action in played.actions:
            if len(engine.legal_actions(state, seat)) > 1:
                states.append((state, seat))
            state = engine.apply(state, seat, action)
        out.extend(rng.sample(states, min(len(states), max(1, count // 4))))
        game += 1
    return out[:count]


_SAMPLES = [0]
_sample = common.Game.sample


def _counted_sample(self: Any, state: Any, rng: random.Random) -> Any:
    _SAMPLES[0] += 1
    return _sample(self, state, rng)


common.Game.sample = _counted_sample  # type: ignore[method-assign]


def choose_counted(
    engine: Any, state: Any, seat: int, budget: bots.Budget, salt: str, players: int, stats: dict
) -> dict[str, Any]:
    """``bots.choose`` (strong), adding its playouts to ``stats["playouts"]``: the search
    samples one position to rank the root's actions and one a playout."""
    before = _SAMPLES[0]
    action = bots.choose(engine, state, seat, "strong", budget=budget, salt=salt, players=players)
    sampled = _SAMPLES[0] - before
    stats["playouts"] += max(0, sampled - 1)
    return action


def fingerprint(items: Any) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:12]


def decisions(engine: Any, sample: list[tuple[Any, int]], playouts: int, seats: int) -> str:
    budget = bots.Budget(seconds=None, playouts=playouts)
    chosen = []
    stats: dict[str, int] = {"playouts": 0}
    start = time.process_time()
    for n, (state, seat) in enumerate(sample):
        chosen.append(
            choose_counted(engine, state, seat, budget, salt=str(n), players=seats, stats=stats)
        )
    took = time.process_time() - start
    return (
        f"{len(sample)} decisions at {playouts} playouts: {took:.2f} s CPU, "
        f"{len(sample) / took:.2f} decisions/s, {stats['playouts'] / took:.0f} playouts/s  "
        f"[{fingerprint(chosen)}]"
    )


def default_budget(engine: Any, sample: list[tuple[Any, int]], seats: int) -> str:
    reached = []
    for n, (state, seat) in enumerate(sample):
        stats = {"playouts": 0}
        choose_counted(engine, state, seat, bots.Budget(), salt=str(n), players=seats, stats=stats)
        reached.append(stats["playouts"])
    searched = [r for r in reached if r > 0]
    return (
        f"default budget {bots.Budget()}: playouts a searched decision reached: mean "
        f"{statistics.mean(searched):.0f}, least {min(searched)}, most {max(searched)} "
        f"({len(searched)} of {len(reached)} decisions searched)"
    )


def games(engine: Any, count: int, playouts: int, seats: int) -> str:
    budget = bots.Budget(seconds=None, playouts=playouts)
    played = []
    start = time.process_time()
    for index in range(count):
        strengths = ["greedy"] * seats
        strengths[index % seats] = "strong"
        game = play_game(engine, strengths, 10_000 + index, budget=budget)
        played.append([game.actions, game.result["winners"]])
    took = time.process_time() - start
    actions = sum(len(p[0]) for p in played)
    return (
        f"{count} games strong-greedy at {playouts} playouts: {took / count:.1f} s CPU a game, "
        f"{actions / count:.0f} actions a game  [{fingerprint(played)}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--titles", default="tal,siam")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--default", action="store_true", help="also the default budget")
    parser.add_argument("--profile")
    args = parser.parse_args()
    for title in args.titles.split(","):
        engine = TITLES[title]
        sample = positions(engine, args.seats, args.positions)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
        print(f"{title} {args.seats} seats: {decisions(engine, sample, args.playouts, args.seats)}")
        if args.profile:
            profiler.disable()
            profiler.dump_stats(f"{args.profile}.{title}")
        if args.default:
            print(f"{title} {args.seats} seats: {default_budget(engine, sample, args.seats)}")
        if args.games:
            line = games(engine, args.games, args.playouts, args.seats)
            print(f"{title} {args.seats} seats: {line}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
