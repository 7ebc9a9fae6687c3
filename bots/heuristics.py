"""How good a position looks for each seat, from a seat's view, for each title.

Values lie between 0 (lost) and 1 (won), like the outcome of a finished game
(:func:`outcome`), so the search can mix finished playouts and scored ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

INVADER_LIMIT = 4  # King of Siam: the invaders end the game with 4 provinces


def outcome(result: dict[str, Any], players: int) -> list[float]:
    """1 for each winner and 0 for the others; a win everybody shares is worth a draw."""
    winners = set(result.get("winners") or [])
    if not winners or len(winners) == players:
        return [0.5] * players
    return [1.0 if seat in winners else 0.0 for seat in range(players)]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def siam(view: dict[str, Any], players: int) -> list[float]:
    """Who would win if everybody passed now, softened by the followers of the likely rulers.

    Every open province goes to its majority (or the invaders), as in the
    rules' end of the game; the seat with the most followers of the faction
    that would rule (or the most complete sets, in the invaders' ending) wins.
    """
    factions = [f["id"] for f in view["factions"]]
    invader = view["invader"]["id"]
    held = [seat["followers"] for seat in view["seats"]]
    takeovers = [t["controller"] for t in view["takeovers"]]
    open_provinces = sorted(
        (p for p in view["provinces"] if not p["resolved"]), key=lambda p: p["track_position"]
    )
    for province in open_provinces:
        if takeovers.count(invader) >= INVADER_LIMIT:
            break
        counts = province["followers"]
        top = max(counts.values(), default=0)
        leaders = [f for f in factions if counts.get(f, 0) == top]
        takeovers.append(leaders[0] if top > 0 and len(leaders) == 1 else invader)
    if takeovers.count(invader) >= INVADER_LIMIT:
        strength = [min(h.get(f, 0) for f in factions) for h in held]
    else:
        last = {
            f: max((i for i, c in enumerate(takeovers) if c == f), default=-1) for f in factions
        }
        ruling = max(factions, key=lambda f: (takeovers.count(f), last[f]))
        second = max(
            (f for f in factions if f != ruling), key=lambda f: (takeovers.count(f), last[f])
        )
        strength = [h.get(ruling, 0) + h.get(second, 0) / 10 for h in held]
    # Partners (4 players) win together: a seat's side is its team.
    side = {seat: [seat] for seat in range(players)}
    for team in view.get("teams") or []:
        for seat in team:
            side[seat] = team
    best = [max(strength[m] for m in side[s]) for s in range(players)]
    return [
        _sigmoid(2.0 * (best[s] - max(best[o] for o in range(players) if o not in side[s])))
        for s in range(players)
    ]


def tal(view: dict[str, Any], players: int) -> list[float]:
    """Points so far, plus a share of what unfinished own pyramids and stones in hand promise.

    A stone in an own pyramid is worth about a third of a point (a large
    mixed pyramid of 30 stones scores 3, a monochrome one 20); one in hand
    less, since it may still go to the Pharaoh.
    """
    worth = [float(seat["points"]) + 0.15 * seat["stones"] for seat in view["seats"]]
    for site in view["sites"]:
        owner = site["owner"]
        if owner is not None and site["in_play"] and not site["finished"]:
            worth[owner] += 0.2 + site["stones"] * (0.3 if site["size"] == "large" else 0.2)
    return [
        _sigmoid((worth[s] - max(worth[o] for o in range(players) if o != s)) / 3.0)
        for s in range(players)
    ]


def neutral(view: dict[str, Any], players: int) -> list[float]:
    """A title without a heuristic: only finished playouts tell positions apart."""
    return [0.5] * players


Heuristic = Callable[[dict[str, Any], int], list[float]]

BY_TITLE: dict[str, Heuristic] = {"siam": siam, "tal": tal}


def for_engine(engine: Any) -> Heuristic:
    return BY_TITLE.get(engine.slug, neutral)
