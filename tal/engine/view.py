"""``view(state, viewer)``: everything a viewer may know, JSON-serialisable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from enginekit import N_, Message, msg
from enginekit.log import mapped

from . import board as B
from .engine import _figures_at, free_scarabs
from .scoring import pyramid_points, pyramid_type
from .state import TalState

if TYPE_CHECKING:
    from .engine import TalEngine


def action_label(state: TalState, seat: int, a: dict[str, Any]) -> Message:
    t = a["type"]
    if t == "bid":
        return msg(
            N_("Bid on group {group} with a tile (rings: {rings})"),
            rings=a["rings"],
            group=a["group"],
        )
    if t == "end_bids":
        return msg(N_("Finish bidding"))
    if t == "move":
        pos = (state.overseers if a["figure"] == "overseer" else state.workers)[seat][a["index"]]
        key = (
            N_("Move overseer {number} from {start} to {to} (steps: {steps})")
            if a["figure"] == "overseer"
            else N_("Move worker {number} from {start} to {to} (steps: {steps})")
        )
        return msg(key, number=a["index"] + 1, start=pos, to=a["to"], steps=B.DIST[pos][a["to"]])
    if t == "end_moves":
        return msg(N_("Finish moving"))
    if t == "plan":
        pos = state.overseers[seat][a["index"]]
        return msg(
            N_("Plan overseer {number} to {to} (steps: {steps})"),
            number=a["index"] + 1,
            to=a["to"],
            steps=B.DIST[pos][a["to"]],
        )
    if t == "submit_plan":
        return msg(N_("Submit the plan"))
    if t == "steal":
        site = state.sites[a["site"]]
        level = max(lv for lv, st in enumerate(site.levels) if any(st))
        colour = site.levels[level][a["slot"]]
        return msg(
            N_("Take a stone from site {site}, level {level}, position {position} ({colour})"),
            colour=colour,
            position=a["slot"] + 1,
            level=level + 1,
            site=a["site"],
        )
    if t == "end_steal":
        return msg(N_("Finish stealing"))
    if t == "takeover":
        return msg(
            N_("Take over site {site} from {owner_player}"),
            site=a["site"],
            owner_player=state.sites[a["site"]].owner,
        )
    if t == "end_takeover":
        return msg(N_("Finish taking over"))
    if t == "build":
        site = state.sites[a["site"]]
        level = next(lv for lv, st in enumerate(site.levels) if None in st)
        return msg(
            N_("Build on site {site}, level {level}, position {position} ({colour})"),
            colour=a["colour"],
            site=a["site"],
            level=level + 1,
            position=a["slot"] + 1,
        )
    if t == "end_build":
        n = sum(state.supply[seat].values())
        if not n:
            return msg(N_("Finish building"))
        return msg(
            N_("Finish building; the rest go onto the Pharaoh pyramid (stones: {count})"), count=n
        )
    return msg(t)


PROMPTS: dict[str, str] = {
    "bid": N_(
        "Lay your bid tiles face down on the groups (at most 10 rings a group), "
        "then finish bidding."
    ),
    "overseer": N_("Move your overseers (steps left for both together: {steps}), then finish."),
    "worker": N_("Move your workers (steps left for all together: {steps}), then finish."),
    "plan": N_(
        "Plan in secret where your overseers go (together at most 6 steps), then submit the plan."
    ),
    "steal": N_("Take stones from the top of other players' sites where you may, or finish."),
    "takeover": N_(
        "Take over sites where you have more overseers and more workers than the owner, or finish."
    ),
    "build": N_(
        "Build your stones (left: {count}) on your sites, 2 per worker there; the rest go "
        "onto the Pharaoh pyramid."
    ),
}


def _log_view(state: TalState, viewer: int | None) -> list[dict[str, Any]]:
    """The log as ``viewer`` may read it. What an entry shows depends only on the entry,
    the viewer and the secrets revealed so far, so the result is memoised on the log's
    shared storage under (viewer, revealed) and grows with the game: O(new entries)."""
    revealed = tuple(state.revealed)

    def entry_view(e: dict[str, Any]) -> dict[str, Any] | None:
        owner = e.get("owner")
        if (
            owner is None
            or owner == viewer
            or (e["secret"] is not None and e["secret"] in revealed)
        ):
            return {"move": e["move"], "key": e["key"], "args": dict(e["args"])}
        if e["redacted"] is not None:
            r = e["redacted"]
            return {"move": e["move"], "key": r["key"], "args": dict(r["args"])}
        return None

    return mapped(state.log, ("view", viewer, revealed), entry_view)


def build_view(engine: TalEngine, state: TalState, viewer: int | None) -> dict[str, Any]:
    n = state.players
    active = sorted(engine.active_seats(state))
    is_active = viewer is not None and viewer in active
    prompt = None
    actions: list[dict[str, Any]] = []
    if is_active:
        assert viewer is not None
        key = PROMPTS[state.phase]
        if state.phase in ("overseer", "worker"):
            prompt = msg(key, steps=B.STEPS - state.steps_used)
        elif state.phase == "build":
            prompt = msg(key, count=sum(state.supply[viewer].values()))
        else:
            prompt = msg(key)
        actions = [
            {"action": a, "label": action_label(state, viewer, a)}
            for a in engine.legal_actions(state, viewer)
        ]

    # the market: how many tiles each seat laid on each group; values only when allowed
    groups = []
    for g, bids in enumerate(state.bids):
        per_seat: dict[int, list[int]] = {}
        for seat, rings in bids:
            per_seat.setdefault(seat, []).append(rings)
        tiles = []
        for seat, values in per_seat.items():
            entry: dict[str, Any] = {"player": seat, "tiles": len(values)}
            if state.auction_revealed or seat == viewer:
                entry["rings"] = list(values)
                entry["total"] = sum(values)
            tiles.append(entry)
        groups.append(
            {
                "group": g + 1,
                "stones": list(state.offered[g]),
                "sold": state.auction_revealed,
                "bids": tiles,
                "winner": state.winners[g] if state.auction_revealed else None,
            }
        )

    figures = _figures_at(state)
    # One pass over the figures and the sites instead of one per site, seat and area.
    site_points = {
        num: pyramid_points(site.size, site.levels, state.expert)
        for num, site in state.sites.items()
    }
    points = [0] * n  # as engine.scores
    for num, site in state.sites.items():
        if site.owner is not None and site.in_play:
            points[site.owner] += site_points[num]
    at_site = {num: ([0] * n, [0] * n) for num in state.sites}
    in_area: dict[str, list[dict[str, Any]]] = {str(a): [] for a in B.AREAS}
    for seat in range(n):
        for kind, k, positions in (
            ("overseer", 0, state.overseers[seat]),
            ("worker", 1, state.workers[seat]),
        ):
            for i, node in enumerate(positions):
                num = B.FIELD_SITE.get(node)
                if num is not None:
                    if num in at_site:
                        at_site[num][k][seat] += 1
                elif node in in_area:
                    in_area[node].append({"player": seat, "kind": kind, "index": i})
    seats = []
    for seat in range(n):
        own = seat == viewer
        entry = {
            "seat": seat,
            "tiles_left": len(state.tiles[seat]),
            "tile_values": sorted(state.tiles[seat]) if own else None,
            "supply": {c: state.supply[seat][c] for c in B.COLOURS if state.supply[seat].get(c)},
            "stones": sum(state.supply[seat].values()),
            "scarabs_free": free_scarabs(state, seat),
            "overseers": list(state.overseers[seat]),
            "workers": list(state.workers[seat]),
            "plan_submitted": state.submitted[seat] if state.phase == "plan" else None,
            "plan": (
                list(state.plans[seat])
                if state.plans and (state.plans_revealed or (own and state.phase == "plan"))
                else None
            ),
            "points": points[seat],
            "sites": sorted(num for num, s in state.sites.items() if s.owner == seat),
        }
        seats.append(entry)

    sites = []
    for num, site in sorted(state.sites.items()):
        size, _suns, fields = B.SITES[num]
        sites.append(
            {
                "site": num,
                "size": size,
                "in_play": site.in_play,
                "owner": site.owner,
                "finished": site.finished,
                "level_sides": list(B.LEVEL_SIDES[size]),
                "levels": [list(lv) for lv in site.levels],
                "stones": site.stone_count(),
                "type": pyramid_type(size, site.levels, state.expert) if site.finished else None,
                "points": site_points[num],
                "fields": [
                    {
                        "field": f,
                        "borders": B.FIELD_AREA[f],
                        "figure": (
                            {"player": figures[f][0], "kind": figures[f][1], "index": figures[f][2]}
                            if f in figures
                            else None
                        ),
                    }
                    for f in B.SITE_FIELDS[num]
                ],
                "overseers": at_site[num][0],
                "workers": at_site[num][1],
            }
        )

    areas = [
        {"area": a, "neighbours": list(B.NEIGHBOURS[a]), "figures": in_area[a]}
        for a in map(str, B.AREAS)
    ]

    turn = None
    if state.current is not None and state.phase in ("overseer", "worker", "steal", "build"):
        turn = {
            "player": state.current,
            "steps_left": B.STEPS - state.steps_used,
            "moved": sorted(state.moved),
            "stones_by_site": [[s, k] for s, k in sorted(state.turn_used.items())],
        }

    return {
        "game": "tal",
        "players": n,
        "options": {"advanced": state.advanced, "expert": state.expert},
        "round": state.round,
        "phase": "finished" if state.phase == "over" else state.phase,
        "start_player": state.start_player,
        "current_player": state.current,
        "active_seats": active,
        "prompt": prompt,
        "actions": actions,
        "log": _log_view(state, viewer),
        "finished": state.phase == "over",
        "result": engine.result(state),
        "viewer": viewer,
        "bag": {
            "count": sum(state.bag.values()),
            "colours": {c: state.bag[c] for c in B.COLOURS},
        },
        "market": {"revealed": state.auction_revealed, "groups": groups},
        "seats": seats,
        "sites": sites,
        "areas": areas,
        "pharaoh": {
            "stones": list(state.pharaoh),
            "count": len(state.pharaoh),
            "capacity": B.PHARAOH_CAPACITY,
            "finished": len(state.pharaoh) >= B.PHARAOH_CAPACITY,
        },
        "out_of_game": {
            "count": sum(state.out.values()),
            "colours": {c: state.out[c] for c in B.COLOURS if state.out.get(c)},
        },
        "turn": turn,
    }
