"""A playable state from one seat's view (``ENGINE.from_view``), for computer players
that see a game only as its players do (an API client).

King of Siam has no secret but the seed, which play never draws from again, so the
state is rebuilt whole: the view shows every figure, card and marker. What it does
not list as such comes from its log, which every viewer reads in full: the order of
the seats' card plays (the tie-breaks of the scoring, ``State.last_play``). The King
markers' order and who acted last (taking back) do not change play and are not kept.
"""

from __future__ import annotations

import copy
from typing import Any

from enginekit.log import SharedLog

from .core import INVADER, PLAYS, Pending, State, Swap
from .maps import MAPS, MapData


def state_from_view(view: dict[str, Any], seat: int) -> State:
    """The state ``view`` (``build_view(state, seat)``) shows, with the seed 0."""
    if view.get("game") != "siam" or view.get("viewer") != seat:
        raise ValueError(f"not a King of Siam view of seat {seat}")
    m = MAPS[view["map"]]
    fid = m.faction_ids
    players = view["players"]
    seats = sorted(view["seats"], key=lambda s: s["seat"])

    def counts(by_faction: dict[str, int]) -> list[int]:
        return [by_faction[f] for f in fid]

    def controller(value: str | None) -> int | None:
        if value is None:
            return None
        return INVADER if value == m.invader_id else fid.index(value)

    log = [{"move": e["move"], "key": e["key"], "args": dict(e["args"])} for e in view["log"]]
    last_play = [-1] * players
    plays = 0
    for entry in log:
        if entry["key"] == PLAYS:
            last_play[entry["args"]["player"]] = plays
            plays += 1
    state = State(
        map_id=m.id,
        players=players,
        seed=0,
        aids=[s["aid"] for s in seats],
        followers=[counts(s["followers"]) for s in seats],
        supply=counts(view["supply"]),
        removed=counts(view["removed"]),
        counts={p["id"]: counts(p["followers"]) for p in view["provinces"]},
        controller={p["id"]: controller(p["controller"]) for p in view["provinces"]},
        track=[t["province"] for t in view["track"]],
        kings=[t["province"] for t in view["track"] if t["king"]],
        resolved=[t["province"] for t in view["takeovers"]],
        hands=[dict(s["cards_left"]) for s in seats],
        played=[list(s["played"]) for s in seats],
        last_play=last_play,
        plays=plays,
        turn=view["turn"] if view["turn"] is not None else 0,
        passed=[s["passed"] for s in seats],
        passes=view["passes"],
        pending=_pending(m, view["pending"]),
        swap_memory=_swap_memory(m, view["no_undo"]),
        moves=view["move_count"],
        log=SharedLog(log),
        finished=view["finished"],
        result=copy.deepcopy(view.get("result")),
    )
    return state


def _swap(m: MapData, forbidden: list[dict[str, Any]]) -> Swap:
    return frozenset(
        (side["province"], tuple(m.faction_ids.index(f) for f in side["gives"]))
        for side in forbidden
    )


def _pending(m: MapData, shown: dict[str, Any] | None) -> Pending | None:
    if shown is None:
        return None
    picks: tuple[Any, ...]
    if shown["kind"] == "king":
        picks = tuple(shown["picks"])
    else:
        picks = tuple((p["province"], m.faction_ids.index(p["faction"])) for p in shown["picks"])
    return Pending(
        card=shown["card"],
        kind=shown["kind"],
        stage=shown["stage"],
        picks=picks,
        to_place=tuple(m.faction_ids.index(f) for f in shown["to_place"]),
        targets=tuple(shown["targets"]),
        restriction=_swap(m, shown["no_undo"]) if shown["no_undo"] else None,
        last_card=shown["last_card"],
    )


def _swap_memory(m: MapData, shown: dict[str, Any] | None) -> tuple[str, Swap] | None:
    if shown is None:
        return None
    kind = next(c.kind for c in m.cards if c.id == shown["card"])
    return kind, _swap(m, shown["forbidden"])
