"""Random full games of King of Siam per second, for each map and player count.

Usage: .venv/bin/python bench/siam_playouts.py [seconds per case, default 2]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from siam.engine import ENGINE  # noqa: E402


def playout(players: int, map_id: str, seed: int) -> int:
    rnd = random.Random(seed)
    st = ENGINE.setup(players, {"map": map_id}, seed)
    n = 0
    while not st.finished:
        (seat,) = ENGINE.active_seats(st)
        st = ENGINE.apply(st, seat, rnd.choice(ENGINE.legal_actions(st, seat)))
        n += 1
    return n


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'map':6} {'players':>7} {'games':>6} {'games/s':>8} {'actions/game':>13}")
    for map_id in ("siam", "saba"):
        for players in (2, 3, 4):
            games = actions = 0
            start = time.perf_counter()
            while time.perf_counter() - start < budget:
                actions += playout(players, map_id, games)
                games += 1
            elapsed = time.perf_counter() - start
            print(
                f"{map_id:6} {players:>7} {games:>6} {games / elapsed:>8.1f} "
                f"{actions / games:>13.1f}"
            )


if __name__ == "__main__":
    main()
