"""Engine speed per title and player count: games/s and µs per protocol call.

Usage: .venv/bin/python bench/engines.py [seconds per row, default 1]

For each title (King of Siam, King of Saba, Tal der Könige) and player count it prints
random full games per second and the mean cost of ``legal_actions`` (the active seat),
``apply`` (a random legal action) and ``view`` (one viewer: each seat and the spectator
in turn), measured on positions sampled from seeded random games. Times are the CPU time
of this process (``time.process_time``), so other load on the machine does not count,
and the three are measured in turns (medians of 7), so the machine's drift counts alike.
The goal (issue 12): ``view`` costs no more than ``legal_actions`` + ``apply`` together.
Then Tal's view at a short and a long log (about 10 and about 1,000 actions), which
should cost about the same, and Tal's view over whole games in the order played (each
position once per viewer: memos inside the view only as warm as in a site's use).
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from siam.engine import ENGINE as SIAM  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402
from tal.engine import board as B  # noqa: E402

TITLES: list[tuple[str, Any, dict[str, Any]]] = [
    ("siam", SIAM, {"map": "siam"}),
    ("saba", SIAM, {"map": "saba"}),
    ("tal", TAL, {}),
]


def playout(engine: Any, players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of one seeded random game, set-up first."""
    rng = random.Random(seed)
    s = engine.setup(players, options, seed)
    states = [s]
    while engine.result(s) is None:
        seat = rng.choice(sorted(engine.active_seats(s)))
        s = engine.apply(s, seat, rng.choice(engine.legal_actions(s, seat)))
        states.append(s)
    return states


def per_call(fn: Any, args: list[tuple[Any, ...]], budget: float) -> float:
    """Mean µs of ``fn(*a)`` over ``args``, repeated for at least ``budget`` seconds."""
    calls = 0
    start = time.process_time()
    while True:
        for a in args:
            fn(*a)
        calls += len(args)
        took = time.process_time() - start
        if took >= budget:
            return took / calls * 1e6


def interleaved(calls: list[tuple[Any, list[tuple[Any, ...]]]], budget: float) -> list[float]:
    """``per_call`` of each (fn, args), in short turns: the median of 7 turns each. A
    virtual machine's speed drifts by a third within seconds; measured one after the
    other, the figures compared would each get another speed."""
    rounds = 7
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(rounds):
        for i, (fn, args) in enumerate(calls):
            times[i].append(per_call(fn, args, budget / rounds / len(calls)))
    return [statistics.median(t) for t in times]


def row(title: str, engine: Any, options: dict[str, Any], players: int, budget: float) -> None:
    start = time.process_time()
    games = 0
    states: list[Any] = []
    while time.process_time() - start < budget or games < 2:
        states.extend(playout(engine, players, options, games))
        games += 1
    games_per_s = games / (time.process_time() - start)
    rng = random.Random(1)
    sample = [s for s in rng.sample(states, min(300, len(states))) if engine.result(s) is None]
    seats = [rng.choice(sorted(engine.active_seats(s))) for s in sample]
    legal = [(s, seat) for s, seat in zip(sample, seats, strict=True)]
    moves = [(s, seat, rng.choice(engine.legal_actions(s, seat))) for s, seat in legal]
    viewers = [*range(players), None]
    views = [(s, viewers[i % len(viewers)]) for i, s in enumerate(sample)]
    # The games played above (thousands of states) stay in memory, and each full garbage
    # collection walks all of them: 50-100 ms that fell on whichever call was being timed
    # (ratios jumped from 0.8 to 2 between runs). Frozen, they are left out of collections,
    # as a site's process holds a few states, not thousands.
    gc.collect()
    gc.freeze()
    lt, at, vt = interleaved(
        [(engine.legal_actions, legal), (engine.apply, moves), (engine.view, views)], budget
    )
    gc.unfreeze()
    verdict = "ok" if vt <= lt + at else "over"
    print(
        f"{title:5} {players:7d} {games_per_s:8.1f} {len(states) / games:8.0f} "
        f"{lt:8.1f} {at:8.1f} {vt:8.1f}  {vt / (lt + at):5.2f} {verdict}"
    )


def long_tal_game(target: int) -> list[Any]:
    """A two-player Tal game of at least ``target`` actions: players who change their plans
    and build a lot make games of a few thousand actions."""
    best: list[Any] = []
    for seed in range(50):
        rng = random.Random(seed)
        s = TAL.setup(2, {}, seed)
        states = [s]
        while TAL.result(s) is None and len(states) <= target:
            seat = rng.choice(sorted(TAL.active_seats(s)))
            acts = TAL.legal_actions(s, seat)
            weights = [
                2.0
                if a["type"] == "plan"
                else 0.25
                if a["type"] == "submit_plan"
                else 5.0
                if a["type"] in ("build", "steal", "takeover")
                else (3.0 if a["to"] in B.FIELD_SITE else 0.3)
                if a["type"] == "move"
                else 1.0
                for a in acts
            ]
            s = TAL.apply(s, seat, rng.choices(acts, weights)[0])
            states.append(s)
        if len(states) > len(best):
            best = states
        if len(best) > target:
            break
    return best


def in_game_order(engine: Any, players: int, options: dict[str, Any], games: int = 2) -> float:
    """Mean µs of ``view`` over whole games in the order they were played, each position
    viewed once by every seat and the spectator (as a site shows them). The per-viewer
    table above views the same sample positions again and again, so memos inside a
    view (Tal's site and market views) are warm there; here they are only as warm as
    the positions before make them."""
    took = 0.0
    calls = 0
    for seed in range(1000, 1000 + games):
        states = playout(engine, players, options, seed)[:-1]
        viewers = [*range(players), None]
        start = time.process_time()
        for s in states:
            for v in viewers:
                engine.view(s, v)
        took += time.process_time() - start
        calls += len(states) * len(viewers)
    return took / calls * 1e6


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print("µs per call; view is one viewer; 'ratio' = view / (legal_actions + apply)")
    header = ("title", "players", "games/s", "actions", "legal", "apply", "view", "ratio")
    print("{:5} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8}  {:>5}".format(*header))
    for title, engine, options in TITLES:
        for players in (2, 3, 4):
            row(title, engine, options, players, budget)
    states = long_tal_game(1000)
    short, long = states[10], states[min(1000, len(states) - 1)]
    viewers = [0, 1, None]
    t_short, t_long = interleaved(
        [(TAL.view, [(short, v) for v in viewers]), (TAL.view, [(long, v) for v in viewers])],
        budget,
    )
    print(
        f"tal view, 2 players: {t_short:.1f} µs at action 10 ({len(short.log)} log entries), "
        f"{t_long:.1f} µs at action {long.move_count} ({len(long.log)} log entries): "
        f"{t_long / t_short:.2f}x (goal <= 1.2x)"
    )
    order = ", ".join(f"{p} players {in_game_order(TAL, p, {}):.1f} µs" for p in (2, 3, 4))
    print(f"tal view in game order (each position once per viewer): {order}")


if __name__ == "__main__":
    main()
