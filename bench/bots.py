"""Win rates, decision times and endings reached of the computer players (``bots``).

Usage: .venv/bin/python bench/bots.py [--titles siam,tal] [--seats 2,3,4]
       [--pairs greedy-random,strong-random,strong-greedy] [--games N] [--playouts N]
       [--budget fixed|default] [--jobs N] [--first-game N] [--positions N] [--endings N]

``--games`` and ``--playouts`` take one number for every title or one per
title, as in ``--games siam=200,tal=40``. ``--first-game N`` plays games N, N+1, ...
(seeds 10,000 + N and up) instead of 0, 1, ...: a fresh set of games to check a
setting chosen on the first. ``--seats``, ``--pairs`` and the
other options select subsets, so that a long run can be split: ``--games 0``
skips the win rates, ``--positions 0`` the decision times, ``--endings 0``
(the default) the endings.

Win rates: a pair ``first-second`` seats one ``first`` bot against ``second``
bots in every other seat (two seats: one against one; three or four seats: one
hard seat against a table of mediums, one medium against randoms). The first
bot's seat turns round the table from game to game. A win counts 1, a win
shared by ``k`` seats ``1/k`` (a King of Siam team win counts 1/2 for each
partner), a loss 0; the fair share is one over the seats. The interval is
Wilson's 95 % score interval of that rate over the games. ``--budget fixed``
(the default): the strong bot thinks for ``--playouts`` playouts a decision
and no clock, so the figures do not depend on the machine's load and every
game can be replayed from its seed; ``--budget default``: the site's budget
(``bots.Budget()``, playouts and a clock). The games run in ``--jobs``
processes.

Decision time: the strong bot at the site's default budget on ``--positions``
positions per title and seat count, sampled from games between the greedy and
the random bot, one position at a time (the other jobs are done by then).

Endings (``--endings N``): N games per title from setup, by biased policies
(:mod:`bots.biased`) mixed with random play, two to four seats; counts each
way a game ended. King of Siam: the invaders' ending (four provinces to the
British/Italians) and the factions' ending (all eight struggles decided), each
by how the winner was found (``tiebreak``), and how many games saw a "2 vs 1"
card fall back to a 1-for-1 swap (ruling B4; a rule reached, not an ending).
Tal der Könige: the Pharaoh pyramid finished, all other pyramids finished, the
bag unable to fill a group (see ``TAL_BAG_NOTE``).

A full run (every title, 2-4 seats, 200 games a pair) takes an hour or more on
two cores: a Tal game with a strong seat takes some 1.3-2 s of one core at 100
playouts (2026-12, after the speed-ups of bench/bot_speed.py), 4-5 s at 400.
The goals of issue 30 are established by these subsets of
``bench/bots.py`` (``make bench`` runs the two-seat ones, the endings and the
decision times)::

    bots.py --titles tal --seats 2 --pairs strong-greedy --games 200 --playouts 100 --positions 0
    bots.py --titles tal --seats 2 --pairs strong-random --games 200 --playouts 100 --positions 0
    bots.py --titles siam --seats 2 --pairs strong-random,strong-greedy --games 200 --positions 0
    bots.py --titles tal --seats 3,4 --pairs strong-greedy --games 40 --playouts 100 --positions 0
    bots.py --titles siam,tal --seats 2,3,4 --games 0 --positions 20
    bots.py --titles siam,tal --games 0 --positions 0 --endings 2000
"""

from __future__ import annotations

import argparse
import collections
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots  # noqa: E402
from bots import biased  # noqa: E402
from bots.arena import play_game  # noqa: E402
from bots.common import pick_random  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from siam.engine.engine import _is_fallback  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402

# King of Saba is King of Siam on another map.
TITLES = {"siam": (SIAM, {}), "saba": (SIAM, {"map": "saba"}), "tal": (TAL, {})}
TAL_BAG_NOTE = (
    "the bag ending cannot happen: every stone stays in the bag, on a pyramid or on the "
    "Pharaoh pyramid (stones leave the game only once it is full), and the pyramids in "
    "play hold at most 129 stones (4 seats), the Pharaoh pyramid 29 before it ends the "
    "game, so the bag keeps at least 165 - 158 = 7 stones, a full group"
)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a rate of ``score`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def _one_game(job: tuple[str, int, str, str, int, int | None, str]) -> tuple[float, float]:
    """(score of the first-named bot, seconds) of game number ``index``."""
    title, seats, first, second, index, playouts, budget_kind = job
    engine, options = TITLES[title]
    focal = index % seats
    strengths = [second] * seats
    strengths[focal] = first
    if budget_kind == "default":
        budget = bots.Budget()
    else:
        budget = bots.Budget(seconds=None, playouts=playouts)
    start = time.perf_counter()
    played = play_game(engine, strengths, 10_000 + index, options=options, budget=budget)
    winners = played.result["winners"]
    score = 1.0 / len(winners) if focal in winners else 0.0
    return score, time.perf_counter() - start


def _positions(title: str, seats: int, count: int) -> list[tuple[object, int]]:
    """Positions from greedy-vs-random games, spread over whole games."""
    engine, options = TITLES[title]
    rng = random.Random(7)
    out: list[tuple[object, int]] = []
    game = 0
    while len(out) < count:
        strengths = ["greedy"] + ["random"] * (seats - 1)
        played = play_game(engine, strengths, 20_000 + game, options=options)
        state = engine.setup(seats, options, 20_000 + game)
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


# -- endings ------------------------------------------------------------------------

Policy = Any


def _random_policy(engine: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    return pick_random(engine.legal_actions(state, seat), rng)


SIAM_POLICIES: list[Policy] = [_random_policy, biased.siam_invader, biased.siam_late_swap]
TAL_POLICIES: list[Policy] = [_random_policy, biased.tal_builder]
ENDING_LIMIT = 20_000  # actions: a game still going then is counted as "no end"


def _ending_game(job: tuple[str, int]) -> tuple[str, bool]:
    """(the ending, whether a "2 vs 1" card fell back) of endings game ``index``."""
    title, index = job
    engine, options = TITLES[title]
    rng = random.Random(index)
    seats = 2 + index % 3
    state = engine.setup(seats, options, 30_000 + index)
    if title == "tal":
        # Half the games all seats build together (all pyramids can then be finished);
        # the others mix the builder and random play.
        pick = index % 4
        policies = (
            [biased.tal_builder] * seats
            if pick < 2
            else [rng.choice(TAL_POLICIES) for _ in range(seats)]
        )
    else:
        policies = [SIAM_POLICIES[(index + seat) % len(SIAM_POLICIES)] for seat in range(seats)]
    fallback = False
    for _ in range(ENDING_LIMIT):
        if engine.result(state) is not None:
            break
        seat = min(engine.active_seats(state))
        state = engine.apply(state, seat, policies[seat](engine, state, seat, rng))
        if title != "tal":
            pending = state.pending
            if pending is not None and pending.stage == "swap" and _is_fallback(state, pending):
                fallback = True
    result = engine.result(state)
    if result is None:
        return "no end", fallback
    if title == "tal":
        return {
            "pharaoh": "Pharaoh pyramid finished",
            "pyramids": "all other pyramids finished",
            "bag": "bag cannot fill a group",
        }[state.end_reason or "pharaoh"], False
    details = result["details"]
    ending = (
        "invaders hold 4 provinces"
        if details["ending"] == "invaders"
        else ("all eight struggles decided")
    )
    return f"{ending} (tiebreak: {details['tiebreak']})", fallback


def endings(titles: list[str], count: int, jobs: int) -> None:
    print(f"Endings reached in {count} games per title (biased policies, 2-4 seats):")
    with multiprocessing.Pool(jobs) as pool:
        for title in titles:
            started = time.perf_counter()
            results = pool.map(_ending_game, [(title, n) for n in range(count)], chunksize=20)
            counts = collections.Counter(ending for ending, _ in results)
            print(f"{title}: ({time.perf_counter() - started:.0f} s)")
            if title == "tal":
                for name in (
                    "Pharaoh pyramid finished",
                    "all other pyramids finished",
                    "bag cannot fill a group",
                ):
                    counts.setdefault(name, 0)
            else:
                for name in ("invaders hold 4 provinces", "all eight struggles decided"):
                    total = sum(v for k, v in counts.items() if k.startswith(name))
                    print(f"  {name:44} {total:6d} (all tiebreaks)")
            for name, number in sorted(counts.items()):
                print(f"  {name:44} {number:6d}")
            if title == "tal":
                print(f"  note: {TAL_BAG_NOTE}")
            else:
                fell_back = sum(1 for _, f in results if f)
                print(f"  games with a '2 vs 1' fallback (rule B4)    {fell_back:6d}")


# -- main ---------------------------------------------------------------------------


def win_rates(args: argparse.Namespace, titles: list[str]) -> None:
    games = per_title(args.games, titles)
    playouts = per_title(args.playouts, titles)
    seat_counts = [int(s) for s in args.seats.split(",")]
    budget = (
        f"the site's default budget ({bots.Budget().playouts} playouts, at most "
        f"{bots.Budget().seconds} s)"
        if args.budget == "default"
        else "a fixed number of playouts a decision, no clock"
    )
    print(
        "Win rates: one first-named bot against the second-named in every other seat; a win "
        "counts 1, a win shared by k seats 1/k, a loss 0; 95 % Wilson interval. Strong bot: "
        f"{budget}."
    )
    print(
        f"{'title':6} {'seats':>5} {'pair':14} {'win %':>6} {'95 % interval':>15} "
        f"{'fair %':>6} {'x fair':>6} {'games':>5} {'playouts':>8} {'s/game':>7}"
    )
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for title in titles:
            if games[title] <= 0:
                continue
            engine, _ = TITLES[title]
            for seats in seat_counts:
                if not engine.min_players <= seats <= engine.max_players:
                    continue
                for pair in args.pairs.split(","):
                    first, second = pair.split("-")
                    count = games[title]
                    jobs = [
                        (title, seats, first, second, n, playouts[title], args.budget)
                        for n in range(args.first_game, args.first_game + count)
                    ]
                    results = pool.map(_one_game, jobs, chunksize=1)
                    score = sum(s for s, _ in results)
                    seconds = statistics.mean(t for _, t in results)
                    low, high = wilson(score, count)
                    rate = score / count
                    shown = "clock" if args.budget == "default" else str(playouts[title])
                    print(
                        f"{title:6} {seats:5d} {pair:14} {100 * rate:6.1f} "
                        f"{f'{100 * low:.1f}-{100 * high:.1f}':>15} {100 / seats:6.1f} "
                        f"{rate * seats:6.2f} {count:5d} {shown:>8} {seconds:7.2f}",
                        flush=True,
                    )
    print(f"(win rates: {time.perf_counter() - started:.0f} s with {args.jobs} jobs)")


def decision_times(args: argparse.Namespace, titles: list[str]) -> None:
    default = bots.Budget()
    print(
        f"Decision time of the strong bot at the default budget ({default.playouts} playouts, "
        f"at most {default.seconds} s), {args.positions} positions per title and seat count:"
    )
    print(f"{'title':6} {'seats':>5} {'median s':>9} {'p90 s':>7} {'max s':>7}")
    for title in titles:
        engine, _ = TITLES[title]
        for seats in [int(s) for s in args.seats.split(",")]:
            if not engine.min_players <= seats <= engine.max_players:
                continue
            times = []
            for n, (state, seat) in enumerate(_positions(title, seats, args.positions)):
                start = time.perf_counter()
                bots.choose(engine, state, seat, "strong", salt=str(n), players=seats)
                times.append(time.perf_counter() - start)
            times.sort()
            print(
                f"{title:6} {seats:5d} {statistics.median(times):9.3f} "
                f"{times[math.ceil(0.9 * len(times)) - 1]:7.3f} {times[-1]:7.3f}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="200")
    parser.add_argument("--playouts", default=str(bots.Budget().playouts))
    parser.add_argument("--budget", choices=("fixed", "default"), default="fixed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="number of the first game (seed 10,000 + number): another set of games",
    )
    parser.add_argument("--titles", default="siam,tal")
    parser.add_argument("--seats", default="2")
    parser.add_argument("--pairs", default="greedy-random,strong-random,strong-greedy")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--endings", type=int, default=0)
    args = parser.parse_args()
    titles = args.titles.split(",")
    if any(n > 0 for n in per_title(args.games, titles).values()):
        win_rates(args, titles)
    if args.positions > 0:
        decision_times(args, titles)
    if args.endings > 0:
        endings(titles, args.endings, args.jobs)


if __name__ == "__main__":
    main()
