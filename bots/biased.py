"""Biased policies: players that prefer certain actions, to reach every ending in real play.

Not computer players for the site (they read the whole state, secrets included,
and play for a kind of ending, not to win): ``bench/bots.py --endings`` and the
tests use them to show that every way a game can end is reached from setup by
legal play. Deterministic from the ``rng`` passed in; pure Python.

- :func:`tal_builder`: Tal der Könige played as a building co-operative. Each
  seat buys only a group nobody has bid on yet, and only as many stones as its
  workers can build this round; claims every free site its overseers reach;
  sends its workers to its own unfinished sites; builds every stone; never
  steals nor takes over. Unsold groups go back into the bag, so the Pharaoh
  pyramid hardly grows and the game ends with every pyramid finished.
- :func:`siam_invader`: King of Siam played to let the invaders in: it passes
  as soon as a struggle is tied (a tie at the takeover sends the invaders in)
  and otherwise plays at random.
"""

from __future__ import annotations

import random
from typing import Any

from .common import pick_random

Action = dict[str, Any]

# Tal der Könige (tal-der-koenige-board.md): stones of a pyramid, two a worker a round.
_TAL_CAPACITY = {"small": 5, "large": 14}
_TAL_PER_WORKER = 2
_TAL_FIELDS = {"small": 4, "large": 8}
_SIAM_LATE = 2  # struggles left when the "2 vs 1" card is played
_TAL_PATIENCE = 20  # rounds after which a seat buys even what it cannot build


def _site_of(node: str) -> int | None:
    return int(node.split("-", 1)[0]) if "-" in node else None


def _tal_open_sites(state: Any, seat: int) -> dict[int, int]:
    """Own unfinished sites in play -> stones still missing."""
    return {
        number: _TAL_CAPACITY[site.size] - site.stone_count()
        for number, site in state.sites.items()
        if site.owner == seat and site.in_play and not site.finished
    }


def _tal_build_room(state: Any, seat: int) -> int:
    """Stones the seat's workers could build this round if they stood where they may go:
    two a worker on a field of an own unfinished site, no more than the sites miss."""
    open_sites = _tal_open_sites(state, seat)
    room = 0
    workers = 5
    for number, missing in sorted(open_sites.items(), key=lambda item: item[1]):
        site = state.sites[number]
        fields = _TAL_FIELDS[site.size] - 1  # one field for an overseer, as a rule
        used = min(workers, fields, -(-missing // _TAL_PER_WORKER))
        room += min(missing, _TAL_PER_WORKER * used)
        workers -= used
    return room


def _tal_bid(state: Any, seat: int, actions: list[Action]) -> Action:
    room = _tal_build_room(state, seat) if state.round > 1 else 6
    won = sum(
        len(state.groups[g]) for g, bids in enumerate(state.bids) if any(s == seat for s, _ in bids)
    )
    # Stones it cannot build go onto the Pharaoh pyramid: a few may, when the last
    # sites miss fewer stones than a group holds.
    spare = max(0, (29 - len(state.pharaoh)) // state.players)
    if state.round > _TAL_PATIENCE:
        spare = 5  # stuck (no seat dares to buy): let the Pharaoh pyramid end it
    if won < room and won + 5 - room <= spare:
        free = {g + 1 for g, bids in enumerate(state.bids) if not bids}
        bids = [a for a in actions if a["type"] == "bid" and a["group"] in free and a["rings"]]
        if bids:
            return max(bids, key=lambda a: (a["rings"], -a["group"]))
    return {"type": "end_bids"}


def _tal_claiming(state: Any, seat: int, node: str) -> bool:
    number = _site_of(node)
    if number is None:
        return False
    site = state.sites[number]
    return site.in_play and site.owner is None


def tal_builder(engine: Any, state: Any, seat: int, rng: random.Random) -> Action:
    """The co-operative builder's action (see the module docstring)."""
    actions = engine.legal_actions(state, seat)
    phase = state.phase
    if phase == "bid":
        return _tal_bid(state, seat, actions)
    if phase in ("overseer", "worker"):
        moves = [a for a in actions if a["type"] == "move"]
        if phase == "overseer":
            good = [a for a in moves if _tal_claiming(state, seat, a["to"])]
        else:
            open_sites = _tal_open_sites(state, seat)
            placed = {
                i for i, node in enumerate(state.workers[seat]) if _site_of(node) in open_sites
            }
            good = [
                a for a in moves if _site_of(a["to"]) in open_sites and a["index"] not in placed
            ]
            good.sort(key=lambda a: -open_sites[_site_of(a["to"]) or 0])
            good = good[:1]
        return rng.choice(good) if good else {"type": "end_moves"}
    if phase == "plan":
        plan = state.plans[seat]
        for i in range(len(plan)):
            if plan[i] is None:
                steps = [a for a in actions if a["type"] == "plan" and a["index"] == i]
                claims = [a for a in steps if _tal_claiming(state, seat, a["to"])]
                here = state.overseers[seat][i]
                stay = [a for a in steps if a["to"] == here]
                # Off own fields (the workers need them), or onto a free site.
                area = [a for a in steps if "-" not in a["to"]]
                return rng.choice(claims or ([] if "-" in here else stay) or area or steps)
        return {"type": "submit_plan"}
    if phase == "steal":
        return {"type": "end_steal"}
    if phase == "takeover":
        return {"type": "end_takeover"}
    if phase == "build":
        builds = [a for a in actions if a["type"] == "build"]
        return builds[0] if builds else {"type": "end_build"}
    return pick_random(actions, rng)


def siam_late_swap(engine: Any, state: Any, seat: int, rng: random.Random) -> Action:
    """Keep the "2 vs 1" card for the last struggles (then few provinces hold two
    followers, and the card falls back to a 1-for-1 swap, ruling B4); else as
    :func:`siam_invader`."""
    actions = engine.legal_actions(state, seat)
    late = sum(1 for p in state.track if state.controller[p] is None) <= _SIAM_LATE
    swap21 = [a for a in actions if a["type"] == "play" and a["card"] == "two_vs_one"]
    if swap21 and late:
        return swap21[0]
    if swap21 and not late and len(actions) > len(swap21):
        actions = [a for a in actions if a not in swap21]
        return _siam_pass_on_tie(state, actions) or pick_random(actions, rng)
    return siam_invader(engine, state, seat, rng)


def _siam_pass_on_tie(state: Any, actions: list[Action]) -> Action | None:
    passes = [a for a in actions if a["type"] == "pass"]
    province = state.current() if state.pending is None else None
    if passes and province is not None:
        counts = state.counts[province]
        if counts.count(max(counts)) > 1:
            return passes[0]
    return None


def siam_invader(engine: Any, state: Any, seat: int, rng: random.Random) -> Action:
    """Pass while the current struggle is tied (the invaders take a tied province)."""
    actions = engine.legal_actions(state, seat)
    return _siam_pass_on_tie(state, actions) or pick_random(actions, rng)
