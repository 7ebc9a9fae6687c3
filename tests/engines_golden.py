"""Golden record of the engines' behaviour, so that speed work cannot change it.

Stored games are replayed from their seed and moves, so the same seed and actions must
give exactly the same states, logs, views (every seat and the spectator), legal-action
lists (order included), random draws and refusals as the code that recorded them.

For each title, player count, map or variant, a few seeded random games are played; after
every action a short digest is taken of all of that and kept per move in
``tests/fixtures/engines_golden.json``. ``tests/test_engines_golden.py`` replays the games
and compares. Regenerate only when a rules change is meant to change behaviour:

    .venv/bin/python tests/engines_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from enginekit import IllegalAction  # noqa: E402
from siam.engine import ENGINE as SIAM  # noqa: E402
from tal.engine import ENGINE as TAL  # noqa: E402
from tal.engine import ENGINE_V1 as TAL_V1  # noqa: E402

FIXTURE = Path(__file__).parent / "fixtures" / "engines_golden.json"

# Tal games are long (several hundred actions); the first ones are played to the end,
# later seeds are cut so that the test stays quick.
TAL_VARIANTS = {
    "basic": {},
    "advanced": {"advanced": True},
    "expert": {"expert": True},
    "advanced+expert": {"advanced": True, "expert": True},
}


def cases() -> list[tuple[str, str, int, dict[str, Any], int, int | None]]:
    """(name, title, players, options, seed, move limit or None for a whole game)."""
    out: list[tuple[str, str, int, dict[str, Any], int, int | None]] = []
    for map_id in ("siam", "saba"):
        for players in (2, 3, 4):
            for seed in (1, 2):
                out.append((f"siam-{map_id}-{players}p-{seed}", "siam", players,
                            {"map": map_id}, seed, None))  # fmt: skip
    # "tal": rules version 1, as the record was first taken (games started before ruling
    # 19 replay by it); "tal2": the current rules, where they differ (2 and 3 players).
    for variant, options in TAL_VARIANTS.items():
        for players in (2, 3, 4):
            full = variant == "basic" or players == 2
            out.append((f"tal-{variant}-{players}p-7", "tal", players, options, 7,
                        None if full else 120))  # fmt: skip
    for players in (2, 3):
        out.append((f"tal2-basic-{players}p-7", "tal2", players, {}, 7, None))
    return out


def _h(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, default=repr).encode()).hexdigest()


def tal_state(s: Any) -> Any:
    """Every field of a Tal state as plain data (the rng by its internal state)."""
    sites = {
        n: [x.number, x.size, x.in_play, x.owner, x.levels, x.finished] for n, x in s.sites.items()
    }
    fields = [
        "players", "advanced", "expert", "seed", "bag", "overseers", "workers", "tiles",
        "supply", "round", "start_player", "phase", "turn_idx", "current", "groups",
        "offered", "bids", "auction_revealed", "winners", "moved", "steps_used",
        "turn_used", "plans", "submitted", "plans_revealed", "pharaoh", "out",
        "last_round", "end_reason", "revealed", "move_count", "last_seat", "last_undoable",
    ]  # fmt: skip
    data = {f: getattr(s, f) for f in fields}
    data["turn_used"] = sorted(data["turn_used"].items())
    data["sites"] = sorted(sites.items())
    data["log"] = list(s.log)
    data["rng"] = s.rng.getstate()
    return data


def _plain(value: Any) -> Any:
    """Sets as sorted lists: their order changes with the process's hash seed."""
    if isinstance(value, frozenset | set):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def siam_state(s: Any) -> Any:
    fields = [
        "map_id", "players", "seed", "aids", "followers", "supply", "removed", "counts",
        "controller", "track", "kings", "resolved", "hands", "played", "last_play", "plays",
        "turn", "passed", "passes", "moves", "finished", "result", "last_actor", "undoable",
    ]  # fmt: skip
    data = {f: getattr(s, f) for f in fields}
    data["pending"] = _plain(vars(s.pending)) if s.pending is not None else None
    data["swap_memory"] = _plain(s.swap_memory)
    data["log"] = list(s.log)
    return data


def _variants(a: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Near misses of a legal action (most of them illegal), to record the refusals."""
    out = []
    for key, value in a.items():
        if key == "type":
            continue
        b = dict(a)
        if isinstance(value, int):
            b[key] = value + rng.choice((-2, -1, 1, 2, 5))
        else:
            b[key] = rng.choice(["16", "19", "22", "15-B", "3-A", "red", "ochre", "xx", "a", "b"])
        out.append(b)
    b = dict(a)
    b["extra"] = 1
    out.append(b)
    return out


def refusals(engine: Any, s: Any, seats: list[int], legal: dict[int, list], rng: random.Random):
    """What ``apply`` says to a few illegal (and some legal) candidates."""
    pool: list[dict[str, Any]] = []
    for seat in seats:
        pool.extend(legal[seat])
    cands: list[tuple[int, Any]] = []
    for a in rng.sample(pool, min(3, len(pool))):
        for b in _variants(a, rng):
            cands.append((rng.randrange(s.players), b))
    cands.append((0, {"type": "nonsense"}))
    cands.append((0, "pass"))
    cands.append((s.players, {"type": "pass"}))
    out = []
    for seat, a in cands:
        try:
            engine.apply(s, seat, a)
            out.append("ok")
        except IllegalAction as e:
            out.append([e.key, e.args_])
    return out


def play(
    title: str, players: int, options: dict[str, Any], seed: int, limit: int | None
) -> list[str]:
    """Digests after set-up and after every action of one seeded random game."""
    engine = {"siam": SIAM, "tal": TAL_V1, "tal2": TAL}[title]
    state_of = siam_state if title == "siam" else tal_state
    rng = random.Random(seed * 7919 + players)
    s = engine.setup(players, options, seed)
    digests = []
    viewers = [*range(players), None]
    while True:
        seats = sorted(engine.active_seats(s))
        legal = {seat: engine.legal_actions(s, seat) for seat in range(players)}
        record = {
            "state": state_of(s),
            "views": [engine.view(s, v) for v in viewers],
            "legal": [legal[seat] for seat in range(players)],
            "active": seats,
            "undo": [engine.can_undo(s, seat) for seat in range(players)],
            "result": engine.result(s),
            "forced": engine.forced_action(s) if hasattr(engine, "forced_action") else None,
            "refusals": refusals(engine, s, seats, legal, rng) if seats else [],
        }
        digests.append(_h(record)[:16])
        if not seats or (limit is not None and len(digests) > limit):
            return digests
        seat = rng.choice(seats)
        s = engine.apply(s, seat, rng.choice(legal[seat]))


def main() -> None:
    if "--write" not in sys.argv:
        sys.exit(__doc__)
    data = {name: play(t, p, o, seed, lim) for name, t, p, o, seed, lim in cases()}
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(data, indent=0) + "\n")
    print(f"{len(data)} games, {sum(map(len, data.values()))} positions -> {FIXTURE}")


if __name__ == "__main__":
    main()
