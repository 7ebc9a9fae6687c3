"""A playable state from one seat's view (``ENGINE.from_view``), for computer players
that see a game only as its players do (an API client).

Everything public is read from the view; what the seat may not know is drawn as
``determinize`` draws it (:func:`tal.engine.determinize.redraw`): the values of the
other seats' bid tiles (the view shows how many each laid on each group and holds),
their plans once handed in, and the order of the bag. A few fields the view does not
show follow from what it does (whose turn it is in the order of the round, the last
round, the secrets already revealed); the log holds what the seat reads of it, every
line public in the rebuilt state. How many secret plan steps the others took is not
known (their clicks are not shown), so the move count is the last one the log names.
The end's reason is set by the engine, which knows the messages (``TalEngine.from_view``).
"""

from __future__ import annotations

import random
from typing import Any

from enginekit.log import SharedLog

from . import board as B
from .determinize import redraw
from .state import Site, TalState


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random) -> TalState:
    """A state that ``seat`` cannot tell from the one ``view`` shows (its view is the
    same), the others' secrets drawn from ``rng``."""
    if view.get("game") != "tal" or view.get("viewer") != seat:
        raise ValueError(f"not a Tal der Könige view of seat {seat}")
    players = view["players"]
    seats = sorted(view["seats"], key=lambda s: s["seat"])
    phase = "over" if view["phase"] == "finished" else view["phase"]
    market = view["market"]
    revealed = market["revealed"]
    groups = market["groups"]
    start, current = view["start_player"], view["current_player"]
    shown_plans = [s["plan"] for s in seats]
    plans_revealed = phase != "plan" and any(plan is not None for plan in shown_plans)
    if phase == "plan":
        submitted = [bool(s["plan_submitted"]) for s in seats]
        # The others' plans are drawn by ``redraw`` (handed in) or not written yet.
        plans = [
            list(shown_plans[seat]) if s == seat else [None] * B.OVERSEERS for s in range(players)
        ]
    elif plans_revealed:
        submitted, plans = [True] * players, [list(plan) for plan in shown_plans]
    else:  # the last plans are no longer shown, nor needed before the next plan phase
        submitted, plans = [], []
    own_tiles = list(seats[seat]["tile_values"])
    log = [{"move": e["move"], "key": e["key"], "args": dict(e["args"])} for e in view["log"]]
    state = TalState(
        players=players,
        advanced=view["options"]["advanced"],
        expert=view["options"]["expert"],
        seed=0,
        rng=random.Random(0),  # drawn by ``redraw``
        bag={c: view["bag"]["colours"][c] for c in B.COLOURS},
        sites={
            s["site"]: Site(
                s["site"],
                s["size"],
                s["in_play"],
                s["owner"],
                [list(lv) for lv in s["levels"]],
                s["finished"],
            )
            for s in view["sites"]
        },
        overseers=[list(s["overseers"]) for s in seats],
        workers=[list(s["workers"]) for s in seats],
        # The others' tiles in hand are drawn by ``redraw`` until the reveal, then all
        # seats hold a full set again.
        tiles=[
            own_tiles if s == seat or not revealed else list(B.BID_TILES) for s in range(players)
        ],
        supply=[dict(s["supply"]) for s in seats],
        round=view["round"],
        start_player=start,
        phase=phase,
        turn_idx=(current - start) % players if current is not None else 0,
        current=current,
        groups=[[] if revealed else list(g["stones"]) for g in groups],
        offered=[list(g["stones"]) for g in groups],
        # In the order each seat laid its first tile there, a seat's tiles together:
        # who laid which tile between whom changes nothing (ties go to the first tile).
        bids=[
            [
                [bid["player"], bid["rings"][k] if "rings" in bid else 0]
                for bid in g["bids"]
                for k in range(bid["tiles"])
            ]
            for g in groups
        ],
        auction_revealed=revealed,
        winners=[g["winner"] for g in groups] if revealed else [],
        moved=list(view["turn"]["moved"]) if view["turn"] else [],
        steps_used=B.STEPS - view["turn"]["steps_left"] if view["turn"] else 0,
        turn_used={site: n for site, n in view["turn"]["stones_by_site"]} if view["turn"] else {},
        plans=plans,
        submitted=submitted,
        plans_revealed=plans_revealed,
        pharaoh=list(view["pharaoh"]["stones"]),
        out=dict(view["out_of_game"]["colours"]),
        last_round=not groups,  # no group could be drawn: the game ends after this round
        log=SharedLog(log),
        revealed=_revealed(view["round"], revealed, plans_revealed),
        move_count=max((e["move"] for e in log), default=0),
    )
    redraw(state, seat, rng)
    return state


def _revealed(round_: int, bids: bool, plans: bool) -> list[str]:
    """The secret tags revealed so far (as ``TalState.revealed``): every earlier round's
    bids (only a last round has no auction) and plans (from round 2), and this round's
    as far as they are."""
    tags = []
    for earlier in range(1, round_):
        tags.append(f"bids-{earlier}")
        if earlier >= 2:
            tags.append(f"plans-{earlier}")
    if bids:
        tags.append(f"bids-{round_}")
    if plans:
        tags.append(f"plans-{round_}")
    return tags
