"""A playout bot that plays Tal der Könige as a person would, roughly: bid, claim sites,
send workers there, build what it can (keeping colours together), steal and take over
when it may. Games by it end by the rules (the Pharaoh pyramid or the bag), with points."""

from __future__ import annotations

import random
from typing import Any

from tal.engine import board as B

ENDS = ("end_bids", "end_moves", "submit_plan", "end_steal", "end_takeover", "end_build")


def choose(state, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    end = next((a for a in legal if a["type"] in ENDS), None)
    if "build" in by_type:
        return _best_build(state, by_type["build"])
    for kind in ("takeover", "steal"):
        if kind in by_type:
            return by_type[kind][0]
    if "bid" in by_type:
        laid = B.BID_TILES.__len__() - len(state.tiles[seat])
        if laid < 3:
            # a tile on a group nobody has bid on yet, else on any
            empty = {g + 1 for g, bids in enumerate(state.bids) if not bids}
            fresh = [a for a in by_type["bid"] if a["group"] in empty and a["rings"] >= 1]
            return rng.choice(fresh or by_type["bid"])
        return end or legal[0]
    if "plan" in by_type:
        plan = state.plans[seat]
        todo = [i for i in range(2) if plan[i] is None]
        if todo:
            i = todo[0]
            options = [a for a in by_type["plan"] if a["index"] == i]
            free = [a for a in options if _unowned_field(state, a["to"])]
            return rng.choice(free or options)
        return end or legal[0]
    if "move" in by_type:
        moves = by_type["move"]
        if state.phase == "overseer":
            free = [a for a in moves if _unowned_field(state, a["to"])]
            if free and len(state.moved) < 2:
                return rng.choice(free)
        if state.phase == "worker" and len(state.moved) < 4:
            mine = [
                a
                for a in moves
                if B.is_field(a["to"])
                and state.sites[B.FIELD_SITE[a["to"]]].owner == seat
                and not state.sites[B.FIELD_SITE[a["to"]]].finished
                and not B.is_field(state.workers[seat][a["index"]])
            ]
            if mine:
                return rng.choice(mine)
        return end or legal[0]
    return end or legal[0]


def _unowned_field(state, node: str) -> bool:
    if not B.is_field(node):
        return False
    site = state.sites[B.FIELD_SITE[node]]
    return site.in_play and site.owner is None


def _best_build(state, builds: list[dict]) -> dict:
    """Prefer the colour already on the level being built (layered pyramids)."""

    def score(a: dict) -> int:
        site = state.sites[a["site"]]
        level = next(lv for lv, st in enumerate(site.levels) if None in st)
        return sum(1 for c in site.levels[level] if c == a["colour"])

    return max(builds, key=score)
