"""Win rates and decision times of the computer players (``bots``), per title.

Usage: .venv/bin/python bench/bots.py [--games N] [--playouts N] [--jobs N]
       [--titles siam,tal,saba] [--pairs greedy-random,strong-random,strong-greedy]
       [--positions N]

``--games`` and ``--playouts`` take one number for every title or one per
title, as in ``--games siam=200,tal=40``.

Win rates: two-player games; the first-named bot takes seat 0 in the even
games and seat 1 in the odd ones (seats swapped half the time). A win counts
1, a loss 0, and a win shared by both seats (a draw) counts half for each. The
strong bot thinks for a fixed number of playouts a decision and no clock
(``--playouts``, default: the site's default playout budget), so the figures
do not depend on the machine's load and every game can be replayed from its
seed; the games run in ``--jobs`` processes.

Decision time: the strong bot at the site's default budget (playouts and
clock, ``bots.Budget()``) on ``--positions`` positions per title, sampled from
games between the greedy and the random bot, one position at a time (the
other jobs are finished by then, so the clock is not shared).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots  # noqa: E402
from bots.arena import play_game  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402

# King of Saba is King of Siam on another map.
TITLES = {"siam": (SIAM, {}), "saba": (SIAM, {"map": "saba"}), "tal": (TAL, {})}


def _one_game(job: tuple[str, str, str, int, int]) -> tuple[float, float]:
    """(score of the first-named bot, seconds) of game number ``index``."""
    title, first, second, index, playouts = job
    engine, options = TITLES[title]
    strengths = [first, second] if index % 2 == 0 else [second, first]
    budget = bots.Budget(seconds=None, playouts=playouts)
    start = time.perf_counter()
    played = play_game(engine, strengths, 10_000 + index, options=options, budget=budget)
    winners = played.result["winners"]
    seat = strengths.index(first)
    score = 1.0 / len(winners) if seat in winners else 0.0
    return score, time.perf_counter() - start


def _positions(title: str, count: int) -> list[tuple[object, int]]:
    """Positions from greedy-vs-random games, spread over whole games."""
    engine, options = TITLES[title]
    rng = random.Random(7)
    out: list[tuple[object, int]] = []
    game = 0
    while len(out) < count:
        played = play_game(engine, ["greedy", "random"], 20_000 + game, options=options)
        state = engine.setup(2, options, 20_000 + game)
        states = []
        for seat, action in played.actions:
            if len(engine.legal_actions(state, seat)) > 1:
                states.append((state, seat))
            state = engine.apply(state, seat, action)
        out.extend(rng.sample(states, min(len(states), max(1, count // 4))))
        game += 1
    return out[:count]


def per_title(text: str, titles: list[str]) -> dict[str, int]:
    """``"200"`` or ``"siam=200,tal=40"``: a number for each title."""
    if "=" not in text:
        return dict.fromkeys(titles, int(text))
    given = dict(part.split("=") for part in text.split(","))
    missing = [t for t in titles if t not in given]
    if missing:
        raise SystemExit(f"no figure for {', '.join(missing)} in {text!r}")
    return {t: int(given[t]) for t in titles}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="200")
    parser.add_argument("--playouts", default=str(bots.Budget().playouts))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--titles", default="siam,tal")
    parser.add_argument("--pairs", default="greedy-random,strong-random,strong-greedy")
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    titles = args.titles.split(",")
    games = per_title(args.games, titles)
    playouts = per_title(args.playouts, titles)
    default = bots.Budget()
    print(
        "Win rates: two-player games, seats swapped every other game; a win counts 1, a win "
        "shared by both seats (a draw) 1/2, a loss 0. Strong bot: a fixed number of playouts "
        "a decision, no clock."
    )
    print(f"{'title':6} {'pair':16} {'win %':>6} {'games':>5} {'playouts':>8} {'s/game':>7}")
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for title in titles:
            for pair in args.pairs.split(","):
                first, second = pair.split("-")
                count = games[title]
                jobs = [(title, first, second, n, playouts[title]) for n in range(count)]
                results = pool.map(_one_game, jobs, chunksize=1)
                score = sum(s for s, _ in results)
                seconds = statistics.mean(t for _, t in results)
                print(
                    f"{title:6} {pair:16} {100 * score / count:6.1f} {count:5d} "
                    f"{playouts[title]:8d} {seconds:7.2f}",
                    flush=True,
                )
    print(f"(win rates: {time.perf_counter() - started:.0f} s with {args.jobs} jobs)")
    print(
        f"Decision time of the strong bot at the default budget ({default.playouts} playouts, "
        f"at most {default.seconds} s), {args.positions} positions per title:"
    )
    print(f"{'title':6} {'median s':>9} {'p90 s':>7} {'max s':>7}")
    if args.positions <= 0:
        return
    for title in titles:
        engine, _ = TITLES[title]
        times = []
        for n, (state, seat) in enumerate(_positions(title, args.positions)):
            start = time.perf_counter()
            bots.choose(engine, state, seat, "strong", salt=str(n))
            times.append(time.perf_counter() - start)
        times.sort()
        print(
            f"{title:6} {statistics.median(times):9.3f} "
            f"{times[int(0.9 * (len(times) - 1))]:7.3f} {times[-1]:7.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
