"""``view(state, viewer)``: everything a viewer may know, JSON-serialisable."""

from __future__ import annotations

from typing import Any

from enginekit import N_, Engine, Message, msg
from enginekit.log import mapped

from . import board as B
from .scoring import pyramid_type
from .state import TalState


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


# Board data that never changes, built once at import instead of on every view. Views are
# read-only (see enginekit), so these lists and dicts are shared by every view.
_AREA_NAMES: tuple[str, ...] = tuple(str(a) for a in B.AREAS)
_AREA_NEIGHBOURS: dict[str, list[str]] = {a: list(B.NEIGHBOURS[a]) for a in _AREA_NAMES}
_LEVEL_SIDES: dict[str, list[int]] = {k: list(v) for k, v in B.LEVEL_SIDES.items()}
# site -> its fields as (field id, the field's view with nobody on it)
_EMPTY_FIELDS: dict[int, tuple[tuple[str, dict[str, Any]], ...]] = {
    num: tuple((f, {"field": f, "borders": B.FIELD_AREA[f], "figure": None}) for f in fields)
    for num, fields in B.SITE_FIELDS.items()
}
_EMPTY_FIELD_LIST: dict[int, list[dict[str, Any]]] = {
    num: [empty for _f, empty in fields] for num, fields in _EMPTY_FIELDS.items()
}

# The plan phase is where games spend most of their views (random and real ones alike),
# and it offers about a hundred plan actions: building an action and a label for each on
# every view cost more than the rest of the view. An entry (action and label) depends only
# on the overseer, where it stands and the target, so each is built once and shared by
# every view (views are read-only).
_SUBMIT_PLAN: dict[str, Any] = {
    "action": {"type": "submit_plan"},
    "label": msg(N_("Submit the plan")),
}
# (overseer, where it stands, where it may go) -> per budget b (0..STEPS): the entries of
# the targets at most b steps away in the order of B.NODES (legal_actions' order), and each
# target's position in that list. Built on first use: at most 2 x 91 rows per set of
# landing nodes (TalEngine.landing: all nodes, or those of the sites in play).
_PlanRow = tuple[list[list[dict[str, Any]]], list[dict[str, int]]]
_PLAN_ROWS: dict[tuple[int, str, tuple[str, ...]], _PlanRow] = {}


def _plan_row(i: int, pos: str, nodes: tuple[str, ...]) -> _PlanRow:
    row = _PLAN_ROWS.get((i, pos, nodes))
    if row is None:
        dist = B.DIST[pos]
        reach = [
            (
                to,
                dist[to],
                {
                    "action": {"type": "plan", "index": i, "to": to},
                    "label": msg(
                        N_("Plan overseer {number} to {to} (steps: {steps})"),
                        number=i + 1,
                        to=to,
                        steps=dist[to],
                    ),
                },
            )
            for to in nodes
            if dist[to] <= B.STEPS
        ]
        by_budget = [[e for _to, k, e in reach if k <= b] for b in range(B.STEPS + 1)]
        where = [
            {to: j for j, to in enumerate(to for to, k, _e in reach if k <= b)}
            for b in range(B.STEPS + 1)
        ]
        row = _PLAN_ROWS[i, pos, nodes] = (by_budget, where)
    return row


def _plan_entries(state: TalState, seat: int, nodes: tuple[str, ...]) -> list[dict[str, Any]]:
    """``_actions`` in the plan phase, built from shared entries by list slicing: the
    actions of ``engine._plan_actions`` (every target among ``nodes`` within the budget
    but the current one, in the same order)."""
    pos = state.overseers[seat]
    plan = state.plans[seat]
    out: list[dict[str, Any]] = []
    for i in range(B.OVERSEERS):
        budget = B.plan_budget(pos, plan, i)  # never over STEPS
        if budget < 0:
            continue
        by_budget, where = _plan_row(i, pos[i], nodes)
        entries = by_budget[budget]
        current = plan[i]
        j = None if current is None else where[budget].get(current)
        if j is None:
            out += entries
        else:
            out += entries[:j]
            out += entries[j + 1 :]
    if None not in plan:
        out.append(_SUBMIT_PLAN)
    return out


_MOVE_LABEL = {
    "overseer": N_("Move overseer {number} from {start} to {to} (steps: {steps})"),
    "worker": N_("Move worker {number} from {start} to {to} (steps: {steps})"),
}


def _actions(engine: Engine, state: TalState, seat: int) -> list[dict[str, Any]]:
    """``legal_actions`` labelled as ``action_label`` labels them: in the plan phase the
    shared entries above, moves labelled inline (a worker turn offers up to a few
    hundred), the rest one call each."""
    if state.phase == "plan":
        return _plan_entries(state, seat, engine.landing(state))
    acts = engine.legal_actions(state, seat)
    dist = B.DIST
    out = []
    for a in acts:
        if a["type"] == "move":
            kind, i, to = a["figure"], a["index"], a["to"]
            pos = (state.overseers if kind == "overseer" else state.workers)[seat][i]
            label = {
                "key": _MOVE_LABEL[kind],
                "args": {"number": i + 1, "start": pos, "to": to, "steps": dist[pos][to]},
            }
        else:
            label = action_label(state, seat, a)
        out.append({"action": a, "label": label})
    return out


_KINDS = ("", "overseer", "worker")
# area -> (its name, its view with nobody in it)
_EMPTY_AREAS: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    (a, {"area": a, "neighbours": _AREA_NEIGHBOURS[a], "figures": []}) for a in _AREA_NAMES
)

# Site views by everything they show (see _site_view), shared by views of every state and
# game: most sites stay as they were from one move to the next, and a position is viewed
# by every seat, so building the 15 site views afresh each time was most of a view's cost.
# key (all but the levels) -> [(levels, site view, points)], most recent first. Bounded:
# emptied when full (4,096 keys of up to 8 entries each: about 26 MB, measured full).
_KnownSite = tuple[list[list[str | None]], dict[str, Any], int]
_SITE_VIEWS: dict[tuple[Any, ...], list[_KnownSite]] = {}
_SITE_VIEWS_MAX = 4096
_LEVELS_PER_KEY = 8


def _remember_site_view(key: tuple[Any, ...], levels: list[list[str | None]]) -> _KnownSite:
    # A copy of the levels (the state's lists are its own, and tests change them in
    # place), which the site view shows as well.
    copied = [list(lv) for lv in levels]
    view, points = _site_view(*key, copied)
    found = (copied, view, points)
    if len(_SITE_VIEWS) >= _SITE_VIEWS_MAX:
        _SITE_VIEWS.clear()
    known = _SITE_VIEWS.setdefault(key, [])
    known.insert(0, found)
    del known[_LEVELS_PER_KEY:]
    return found


def _site_view(
    num: int,
    size: str,
    in_play: bool,
    owner: int | None,
    finished: bool,
    expert: bool,
    n: int,
    figs: tuple[tuple[str, int, int, int], ...],
    levels: list[list[str | None]],
) -> tuple[dict[str, Any], int]:
    """One site's part of every view, and its points: a function of its arguments only
    (which is what makes memoising it under them safe). ``levels`` becomes part of it."""
    stones = sum(map(len, levels)) - sum([lv.count(None) for lv in levels])
    complete = stones == B.CAPACITY[size]
    # pyramid_points is 0 unless complete; the type is worked out once for both
    kind = pyramid_type(size, levels, expert) if complete or finished else None
    points = B.POINTS[size][kind] if complete and kind is not None else 0
    if figs:
        counts = ([0] * n, [0] * n)
        on_field: dict[str, dict[str, Any]] = {}
        for node, seat, k, i in figs:  # a later figure on a field wins, as _figures_at
            on_field[node] = {"player": seat, "kind": _KINDS[k], "index": i}
            counts[k - 1][seat] += 1
        fields = [
            {"field": f, "borders": empty["borders"], "figure": on_field[f]}
            if f in on_field
            else empty
            for f, empty in _EMPTY_FIELDS[num]
        ]
        overseers, workers = counts
    else:
        fields = _EMPTY_FIELD_LIST[num]
        overseers = [0] * n
        workers = [0] * n
    view = {
        "site": num,
        "size": size,
        "in_play": in_play,
        "owner": owner,
        "finished": finished,
        "level_sides": _LEVEL_SIDES[size],
        "levels": levels,
        "stones": stones,
        "type": kind if finished else None,
        "points": points,
        "fields": fields,
        "overseers": overseers,
        "workers": workers,
    }
    return view, points


# Market views by what they show, as the site views: the market stays the same for a whole
# round once bidding is over, and then looks the same to every viewer. key -> [(bids,
# offered, winners, groups view)], most recent first; bounded like _SITE_VIEWS.
_KnownMarket = tuple[list[list[list[int]]], list[list[str]], list[int | None], list[dict[str, Any]]]
_MARKETS: dict[tuple[Any, ...], list[_KnownMarket]] = {}
_MARKETS_MAX = 1024


def _market(state: TalState, viewer: int | None) -> list[dict[str, Any]]:
    revealed = state.auction_revealed
    bids, offered, winners = state.bids, state.offered, state.winners
    # Until the reveal a viewer sees its own rings only, so the viewer is part of the key.
    key = (revealed, None if revealed else viewer, tuple(map(len, bids)))
    for known in _MARKETS.get(key, ()):
        if known[0] == bids and known[1] == offered and known[2] == winners:
            return known[3]
    groups = _market_view(bids, offered, winners, revealed, viewer)
    if len(_MARKETS) >= _MARKETS_MAX:
        _MARKETS.clear()
    known_list = _MARKETS.setdefault(key, [])
    # copies: the state's lists are its own
    known_list.insert(
        0,
        ([[list(b) for b in g] for g in bids], [list(g) for g in offered], list(winners), groups),
    )
    del known_list[8:]
    return groups


def _market_view(
    bids: list[list[list[int]]],
    offered: list[list[str]],
    winners: list[int | None],
    revealed: bool,
    viewer: int | None,
) -> list[dict[str, Any]]:
    """How many tiles each seat laid on each group; the values only when allowed."""
    groups = []
    for g, group_bids in enumerate(bids):
        per_seat: dict[int, list[int]] = {}
        for seat, rings in group_bids:
            per_seat.setdefault(seat, []).append(rings)
        tiles = []
        for seat, values in per_seat.items():
            entry: dict[str, Any] = {"player": seat, "tiles": len(values)}
            if revealed or seat == viewer:
                entry["rings"] = values
                entry["total"] = sum(values)
            tiles.append(entry)
        groups.append(
            {
                "group": g + 1,
                "stones": list(offered[g]),
                "sold": revealed,
                "bids": tiles,
                "winner": winners[g] if revealed else None,
            }
        )
    return groups


def build_view(engine: Engine, state: TalState, viewer: int | None) -> dict[str, Any]:
    n = state.players
    active = sorted(engine.active_seats(state))
    prompt = None
    actions: list[dict[str, Any]] = []
    if viewer is not None and viewer in active:
        key = PROMPTS[state.phase]
        if state.phase in ("overseer", "worker"):
            prompt = msg(key, steps=B.STEPS - state.steps_used)
        elif state.phase == "build":
            prompt = msg(key, count=sum(state.supply[viewer].values()))
        else:
            prompt = msg(key)
        actions = _actions(engine, state, viewer)

    groups = _market(state, viewer)

    # One pass over the figures: what stands in each area, and per site the figures on
    # its fields as (field, seat, 1 overseer | 2 worker, index), part of its memo key.
    in_area: dict[str, list[dict[str, Any]]] = {}
    on_site: dict[int, list[tuple[str, int, int, int]]] = {}
    field_site = B.FIELD_SITE
    for seat in range(n):
        for k, positions in ((1, state.overseers[seat]), (2, state.workers[seat])):
            for i, node in enumerate(positions):
                num = field_site.get(node)
                if num is not None:
                    on_site.setdefault(num, []).append((node, seat, k, i))
                elif node in _AREA_NEIGHBOURS:
                    in_area.setdefault(node, []).append(
                        {"player": seat, "kind": _KINDS[k], "index": i}
                    )

    expert = state.expert
    points = [0] * n  # as engine.scores
    owned: list[list[int]] = [[] for _ in range(n)]
    sites = []
    sites_state = state.sites
    for num in sorted(sites_state):
        site = sites_state[num]
        figs = on_site.get(num)
        owner = site.owner
        key = (num, site.size, site.in_play, owner, site.finished, expert, n, tuple(figs or ()))
        levels = site.levels
        # The levels are compared as lists, not made part of the key: no tuples to
        # build and hash, and most sites have one set of levels per key.
        found = None
        for known in _SITE_VIEWS.get(key, ()):
            if known[0] == levels:
                found = known
                break
        if found is None:
            found = _remember_site_view(key, levels)
        _levels, site_view, site_points = found
        sites.append(site_view)
        if owner is not None:
            if 0 <= owner < n:
                owned[owner].append(num)
            if site.in_play:
                points[owner] += site_points

    phase = state.phase
    seats = []
    for seat in range(n):
        own = seat == viewer
        supply = state.supply[seat]
        seats.append(
            {
                "seat": seat,
                "tiles_left": len(state.tiles[seat]),
                "tile_values": sorted(state.tiles[seat]) if own else None,
                "supply": {c: supply[c] for c in B.COLOURS if supply.get(c)},
                "stones": sum(supply.values()),
                # as free_scarabs: every site this seat owns, in play or not
                "scarabs_free": B.SCARABS - len(owned[seat]),
                "overseers": list(state.overseers[seat]),
                "workers": list(state.workers[seat]),
                "plan_submitted": state.submitted[seat] if phase == "plan" else None,
                "plan": (
                    list(state.plans[seat])
                    if state.plans and (state.plans_revealed or (own and phase == "plan"))
                    else None
                ),
                "points": points[seat],
                "sites": owned[seat],
            }
        )

    areas = [
        {"area": a, "neighbours": _AREA_NEIGHBOURS[a], "figures": in_area[a]}
        if a in in_area
        else empty
        for a, empty in _EMPTY_AREAS
    ]

    turn = None
    if state.current is not None and phase in ("overseer", "worker", "steal", "build"):
        turn = {
            "player": state.current,
            "steps_left": B.STEPS - state.steps_used,
            "moved": sorted(state.moved),
            "stones_by_site": [[s, k] for s, k in sorted(state.turn_used.items())],
        }

    bag = state.bag
    out = state.out
    return {
        "game": "tal",
        "players": n,
        "options": {"advanced": state.advanced, "expert": expert},
        "round": state.round,
        "phase": "finished" if phase == "over" else phase,
        "start_player": state.start_player,
        "current_player": state.current,
        "active_seats": active,
        "prompt": prompt,
        "actions": actions,
        "log": _log_view(state, viewer),
        "finished": phase == "over",
        "result": engine.result(state),
        "viewer": viewer,
        "bag": {"count": sum(bag.values()), "colours": {c: bag[c] for c in B.COLOURS}},
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
            "count": sum(out.values()),
            "colours": {c: out[c] for c in B.COLOURS if out.get(c)},
        },
        "turn": turn,
    }
