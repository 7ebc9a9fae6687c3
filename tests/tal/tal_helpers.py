"""Hand-made positions and a playout bot for the Tal der Könige tests."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

from enginekit import IllegalAction
from tal.engine import ENGINE
from tal.engine import board as B
from tal.engine.engine import _seek
from tal.engine.state import TalState

E = ENGINE


def levels_from(size: str, spec: list[str]) -> list[list[str | None]]:
    """Levels from strings, one per level, one letter per slot: r g b w o, '.' empty."""
    names = {"r": "red", "g": "grey", "b": "black", "w": "white", "o": "ochre", ".": None}
    levels = B.empty_levels(size)
    for lv, row in enumerate(spec):
        row = row.replace(" ", "")
        assert len(row) == len(levels[lv]), (lv, row)
        levels[lv] = [names[ch] for ch in row]
    return levels


FULL_LARGE = ["rrrrrrrrr", "rrrr", "r"]
FULL_SMALL = ["rrrr", "r"]


def position(
    players: int = 3,
    phase: str = "worker",
    round: int = 2,
    start_player: int = 0,
    current: int | None = None,
    overseers: dict[int, list[str]] | None = None,
    workers: dict[int, list[str]] | None = None,
    owners: dict[int, int | None] | None = None,
    levels: dict[int, list[str]] | None = None,
    supply: dict[int, dict[str, int]] | None = None,
    advanced: bool = False,
    expert: bool = False,
    seed: int = 1,
) -> TalState:
    """A state in the given phase, built from set-up by putting things where we want them.

    Stones are conserved: everything placed on sites or in supplies comes out of the bag,
    and the market of the set-up goes back into the bag unless the phase is ``bid``.
    """
    s = E.setup(players, {"advanced": advanced, "expert": expert}, seed)
    s.round = round
    s.start_player = start_player
    if phase != "bid":
        for g in s.groups:
            for c in g:
                s.bag[c] += 1
        s.groups, s.offered, s.bids = [], [], []
    for seat, pos in (overseers or {}).items():
        s.overseers[seat] = list(pos) + s.overseers[seat][len(pos) :]
    for seat, pos in (workers or {}).items():
        s.workers[seat] = list(pos) + s.workers[seat][len(pos) :]
    for site, owner in (owners or {}).items():
        s.sites[site].owner = owner
    for site, spec in (levels or {}).items():
        lv = levels_from(s.sites[site].size, spec)
        s.sites[site].levels = lv
        for row in lv:
            for c in row:
                if c is not None:
                    s.bag[c] -= 1
        s.sites[site].finished = all(c is not None for row in lv for c in row)
    for seat, stones in (supply or {}).items():
        s.supply[seat] = {c: n for c, n in stones.items() if n}
        for c, n in stones.items():
            s.bag[c] -= n
    s.phase = phase
    s.log = []
    if phase == "plan":
        s.current = None
        s.plans = [list(p) for p in s.overseers]
        s.submitted = [False] * players
    elif phase in ("steal", "takeover", "build") and current is None:
        # let the engine find the first seat with something to do, as in play
        s.turn_idx = 0
        _seek(s)
    else:
        cur = start_player if current is None else current
        s.current = cur
        s.turn_idx = s.order().index(cur)
        s.moved, s.steps_used, s.turn_used = [], 0, {}
    assert stones_total(s) == B.TOTAL_STONES
    assert min(s.bag.values()) >= 0, s.bag
    return s


def full(size: str, letter: str) -> list[str]:
    """A finished monochrome pyramid."""
    return [letter * 9, letter * 4, letter] if size == "large" else [letter * 4, letter]


def all_full(players: int, skip: tuple[int, ...] = ()) -> dict[int, list[str]]:
    """Finished pyramids on every site in play (colours spread so the bag suffices)."""
    out = {}
    for i, n in enumerate(B.sites_in_play(players)):
        if n not in skip:
            out[n] = full(B.site_size(n), "rgbwo"[i % 5])
    return out


def stones_total(s: TalState) -> int:
    on_sites = sum(site.stone_count() for site in s.sites.values())
    return (
        sum(s.bag.values())
        + sum(len(g) for g in s.groups)
        + sum(sum(sup.values()) for sup in s.supply)
        + on_sites
        + len(s.pharaoh)
        + sum(s.out.values())
    )


def act(s: TalState, seat: int, **action: Any) -> TalState:
    return E.apply(s, seat, dict(action))


def submit_staying(s: TalState, seat: int) -> TalState:
    """Plan every overseer not yet planned to stay where it is, then submit."""
    for i, target in enumerate(s.plans[seat]):
        if target is None:
            s = act(s, seat, type="plan", index=i, to=s.overseers[seat][i])
    return act(s, seat, type="submit_plan")


def keys(s: TalState) -> list[str]:
    return [e["key"] for e in s.log]


def bot_action(s: TalState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random player that prefers doing things (so games reach steals and takeovers)."""
    acts = E.legal_actions(s, seat)
    weights = []
    for a in acts:
        t = a["type"]
        w = 1.0
        if t == "bid":
            w = 0.5
        elif t == "move":
            site = B.FIELD_SITE.get(a["to"])
            if site is None:
                w = 0.2
            else:
                owner = s.sites[site].owner
                mine = any(B.FIELD_SITE.get(n) == site for n in s.overseers[seat])
                if a["figure"] == "worker":
                    w = 6.0 if (owner == seat or mine) else 0.2
                else:
                    w = 2.0 if owner != seat else 0.3
        elif t == "end_moves":
            w = 1.5
        elif t == "plan":
            w = 0.3 if B.FIELD_SITE.get(a["to"]) is not None else 0.02
        elif t == "submit_plan":
            w = 2.0
        elif t in ("steal", "takeover", "build"):
            w = 5.0
        weights.append(w)
    return rng.choices(acts, weights)[0]


def play(
    players: int,
    options: dict[str, Any],
    seed: int,
    uniform: bool = False,
    limit: int = 20000,
) -> tuple[TalState, list[tuple[int, dict[str, Any]]]]:
    """A full game; returns the final state and the (seat, action) log."""
    rng = random.Random(seed)
    s = E.setup(players, options, seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    while E.result(s) is None:
        seat = rng.choice(sorted(E.active_seats(s)))
        if uniform:
            a = rng.choice(E.legal_actions(s, seat))
        else:
            a = bot_action(s, seat, rng)
        a = json.loads(json.dumps(a))  # as read back from the database
        s = E.apply(s, seat, a)
        moves.append((seat, a))
        assert len(moves) < limit
    return s, moves


SECRET_INT = 987654321
SECRET_STR = "SECRET-PLAN"


def tamper(s: TalState, viewer: int | None) -> TalState:
    """A copy in which every secret *field* ``viewer`` may not know is replaced by sentinels.

    What is secret comes from the rules, not from the engine: the other seats' tile values on
    the groups before the reveal, the tiles still in their hands, their plans before the
    reveal, and the bag's random order. The log is left alone (it is the engine's own account
    of what is private); ``counterfactual`` checks the log independently.
    The view of the copy must then equal the view of the original and contain no sentinel.
    """
    t = s.clone()
    others = [seat for seat in range(s.players) if seat != viewer]
    if not s.auction_revealed:
        t.bids = [[[seat, SECRET_INT if seat != viewer else r] for seat, r in g] for g in s.bids]
    for seat in others:
        t.tiles[seat] = [SECRET_INT] * len(s.tiles[seat])
    if s.phase == "plan" and not s.plans_revealed:
        for seat in others:
            t.plans[seat] = [f"{SECRET_STR}-{seat}-{i}" for i in range(2)]
    t.rng = random.Random(SECRET_INT)
    t.seed = SECRET_INT
    return t


def secret_of(s: TalState, seat: int) -> Any:
    """What the rules keep secret about ``seat`` right now (None: nothing)."""
    if s.phase == "bid" and not s.auction_revealed:
        return (
            [[r for who, r in g if who == seat] for g in s.bids],
            sorted(s.tiles[seat]),
        )
    if s.phase == "plan" and not s.plans_revealed:
        return list(s.plans[seat])
    return None


History = list[tuple[TalState, int, dict[str, Any]]]


def history(start: TalState, moves: list[tuple[int, dict[str, Any]]]) -> History:
    """(state before, seat, action) for every move played from ``start``."""
    out: History = []
    s = start
    for seat, a in moves:
        out.append((s, seat, a))
        s = E.apply(s, seat, a)
    return out


def _alternative(hist: History, seat: int, rng: random.Random) -> TalState | None:
    """Replay ``hist``, but with ``seat``'s secret choices (tile values, plan targets)
    changed at random to other legal ones; None if that fails."""
    first = next(k for k, (_, who, a) in enumerate(hist) if who == seat and a["type"] in SECRET)
    s = hist[first][0]
    for _, who, a in hist[first:]:
        if who == seat and a["type"] in SECRET:
            key = SECRET[a["type"]]
            alts = [
                b
                for b in E.legal_actions(s, who)
                if b["type"] == a["type"] and all(b[k] == a[k] for k in a if k != key)
            ]
            if not alts:
                return None
            a = rng.choice([b for b in alts if b[key] != a[key]] or alts)
        try:
            s = E.apply(s, who, a)
        except IllegalAction:
            return None
    return s


SECRET = {"bid": "rings", "plan": "to"}  # the secret part of a secret action


def counterfactual(s: TalState, hist: History, seed: int = 0) -> int:
    """For every seat with secrets, replay ``hist`` (the moves since the current bid or plan
    phase began, ending in ``s``) with that seat's secret choices changed: every other seat's
    view (and the spectator's) must stay byte-identical, while the seat's own view must change
    (so the check is not vacuous). Returns how many seats were checked."""
    rng = random.Random(seed)
    checked = 0
    views = {v: json.dumps(E.view(s, v)) for v in [*range(s.players), None]}
    for seat in range(s.players):
        secret = secret_of(s, seat)
        if secret is None or not any(w == seat and a["type"] in SECRET for _, w, a in hist):
            continue
        alternative = None
        for _ in range(8):
            t = _alternative(hist, seat, rng)
            if t is not None and secret_of(t, seat) != secret:
                alternative = t
                break
        assert alternative is not None, seat
        checked += 1
        for other in range(s.players):
            if other != seat:
                assert secret_of(alternative, other) == secret_of(s, other)
        for viewer, text in views.items():
            if viewer == seat:
                assert json.dumps(E.view(alternative, viewer)) != text, seat
            else:
                assert json.dumps(E.view(alternative, viewer)) == text, (seat, viewer)
    return checked


def assert_no_leak(s: TalState, hist: History | None = None) -> int:
    """No view shows another seat's secrets. With the history since the current bid or plan
    phase began, the log is checked as well (see ``counterfactual``)."""
    for viewer in [*range(s.players), None]:
        view = E.view(s, viewer)
        text = json.dumps(view)
        tampered = E.view(tamper(s, viewer), viewer)
        ttext = json.dumps(tampered)
        assert str(SECRET_INT) not in ttext, viewer
        assert SECRET_STR not in ttext, viewer
        assert ttext == text, viewer
    if hist is None:
        return 0
    return counterfactual(s, hist)


def snapshot(s: TalState) -> dict[str, Any]:
    """A deep copy of everything in a state, comparable with == (the rng by its internal
    state), so in-place changes to nested lists and dicts show."""
    d = vars(pickle.loads(pickle.dumps(s)))  # a deep copy, faster than copy.deepcopy
    d["rng"] = s.rng.getstate()
    return d
