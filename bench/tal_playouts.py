"""Random full games of Tal der Könige per second, by player count and variant.

Usage: .venv/bin/python bench/tal_playouts.py [seconds per row, default 2]

Two players: "uniform" picks uniformly among the legal actions; "busy" prefers doing
things (bids, moves onto sites, steals, takeovers, building), which gives longer games.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tal.engine import ENGINE as E  # noqa: E402
from tal.engine import board as B  # noqa: E402
from tal.engine.state import TalState  # noqa: E402

VARIANTS: dict[str, dict[str, bool]] = {
    "basic": {},
    "advanced": {"advanced": True},
    "expert": {"expert": True},
    "advanced+expert": {"advanced": True, "expert": True},
}


def busy(s: TalState, seat: int, rng: random.Random) -> dict[str, Any]:
    acts = E.legal_actions(s, seat)
    weights = []
    for a in acts:
        t = a["type"]
        if t == "move":
            site = B.FIELD_SITE.get(a["to"])
            w = 0.2 if site is None else 3.0
        elif t == "plan":
            w = 0.3 if B.FIELD_SITE.get(a["to"]) is not None else 0.02
        elif t in ("steal", "takeover", "build"):
            w = 5.0
        elif t == "bid":
            w = 0.5
        else:
            w = 1.5
        weights.append(w)
    return rng.choices(acts, weights)[0]


def uniform(s: TalState, seat: int, rng: random.Random) -> dict[str, Any]:
    return rng.choice(E.legal_actions(s, seat))


def playout(players: int, options: dict[str, bool], seed: int, policy: Any) -> int:
    rng = random.Random(seed)
    s = E.setup(players, options, seed)
    moves = 0
    while E.result(s) is None:
        seat = rng.choice(sorted(E.active_seats(s)))
        s = E.apply(s, seat, policy(s, seat, rng))
        moves += 1
    return moves


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    header = ("policy", "players", "variant", "games/s", "actions/s", "avg len")
    print("{:8} {:>7} {:16} {:>8} {:>10} {:>8}".format(*header))
    for name, policy in (("uniform", uniform), ("busy", busy)):
        for players in (2, 3, 4):
            for variant, options in VARIANTS.items():
                start = time.perf_counter()
                games = actions = 0
                while time.perf_counter() - start < budget or games < 2:
                    actions += playout(players, options, games, policy)
                    games += 1
                took = time.perf_counter() - start
                print(
                    f"{name:8} {players:7d} {variant:16} {games / took:8.1f} "
                    f"{actions / took:10.0f} {actions / games:8.0f}"
                )


if __name__ == "__main__":
    main()
