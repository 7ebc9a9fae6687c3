"""The Tal der Könige board, prepared for the templates.

Everything here is derived from ``ENGINE.view(state, viewer)`` (never from the
engine's state), so the board shows exactly what the viewer may know. Only the
fixed geometry of the board (``tal.engine.board``: which field borders which
area, distances) is read besides the view. The viewer's legal actions are
matched to what can be clicked: bid values on the market, move targets on
fields and areas, pyramid slots for stealing and building, takeover buttons
on sites and the buttons that end a turn.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.actions import BoardActions
from tal.engine import board as B

# Words that reach the page only as engine data; listed so that ``makemessages``
# collects them for the catalogue.
ENGINE_WORDS = [
    gettext_noop("red"),
    gettext_noop("grey"),
    gettext_noop("black"),
    gettext_noop("white"),
    gettext_noop("ochre"),
    gettext_noop("monochrome"),
    gettext_noop("layered"),
    gettext_noop("stripes"),
    gettext_noop("mixed"),
]

PHASES = {
    "bid": gettext_noop("Bidding for stones"),
    "overseer": gettext_noop("Placing overseers"),
    "plan": gettext_noop("Planning overseers in secret"),
    "worker": gettext_noop("Placing workers"),
    "steal": gettext_noop("Stealing stones"),
    "takeover": gettext_noop("Taking over sites"),
    "build": gettext_noop("Building pyramids"),
    "finished": gettext_noop("Game over"),
}

SIZES = {"small": gettext_noop("small pyramid"), "large": gettext_noop("large pyramid")}

# The board as four triangles: the centre and three corners, each with an inner
# and an outer area and the sites around them.
REGIONS = [
    {"areas": ["16"], "sites": [13, 14, 15], "pharaoh": True},
    {"areas": ["17", "18"], "sites": [1, 2, 3, 4], "pharaoh": False},
    {"areas": ["19", "20"], "sites": [5, 6, 7, 8], "pharaoh": False},
    {"areas": ["21", "22"], "sites": [9, 10, 11, 12], "pharaoh": False},
]

END_TYPES = ("end_bids", "end_moves", "submit_plan", "end_steal", "end_takeover", "end_build")


def _word(value: str | None) -> str:
    return _(value) if value else ""


def colour_info(colour: str) -> dict[str, str]:
    name = _word(colour)
    return {"id": colour, "name": name, "initial": name[:1].upper()}


def _initials(view: dict, names: dict[int, str]) -> dict[int, str]:
    seats = [s["seat"] for s in view["seats"]]
    initials = {s: (names.get(s) or "?")[:1].upper() for s in seats}
    if len(set(initials.values())) < len(seats):
        initials = {s: str(s + 1) for s in seats}
    return initials


def build(view: dict, player_names: dict[int, str], version: str = "") -> dict[str, Any]:
    """Everything the board template draws, from one viewer's view."""
    acts = BoardActions(view, player_names)
    viewer = view.get("viewer")
    phase = view["phase"]
    initials = _initials(view, player_names)

    def name(seat: int | None) -> str:
        if seat is None:
            return ""
        return player_names.get(seat) or _("Seat {n}").format(n=seat + 1)

    kind_names = {"overseer": _("overseer"), "worker": _("worker")}

    def figure(seat: int, kind: str, index: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "kind": kind,
            "index": index,
            "number": index + 1,
            "key": f"{kind[0]}{index}",
            "initial": initials[seat],
            "mine": seat == viewer,
            "title": _("{player}: {kind} {number}").format(
                player=name(seat), kind=kind_names[kind], number=index + 1
            ),
        }

    # ---------------------------------------------------------------- moves and plans
    move_type = "plan" if phase == "plan" else "move"
    # figure key -> its move/plan actions, and node -> [actions]
    node_acts: dict[str, list[dict]] = {}
    picker: list[dict[str, Any]] = []
    me = next((s for s in view["seats"] if s["seat"] == viewer), None)
    my_plan = (me or {}).get("plan") if phase == "plan" else None
    if me is not None:
        kinds = ["overseer"] if phase == "plan" else ["overseer", "worker"]
        for kind in kinds:
            positions = me["overseers"] if kind == "overseer" else me["workers"]
            for i, pos in enumerate(positions):
                if move_type == "plan":
                    found = acts.all(type="plan", index=i)
                else:
                    found = acts.all(type="move", figure=kind, index=i)
                if not found:
                    continue
                fig = figure(viewer, kind, i)
                for e in found:
                    e["fig"] = fig["key"]
                    node_acts.setdefault(e["action"]["to"], []).append(e)
                picker.append(
                    {
                        **fig,
                        "at": pos,
                        "planned": my_plan[i] if my_plan else None,
                        "targets": len(found),
                    }
                )
        if picker:
            # the first overseer still without a target while planning, else the first
            unplanned = [f for f in picker if move_type == "plan" and f["planned"] is None]
            (unplanned or picker)[0]["checked"] = True

    # ---------------------------------------------------------------- seats
    result = view.get("result") or {}
    winners = set(result.get("winners") or [])
    seats = []
    for s in view["seats"]:
        n = s["seat"]
        plan = None
        if s.get("plan"):
            plan = [
                {"number": i + 1, "to": to, "steps": B.DIST[s["overseers"][i]][to] if to else None}
                for i, to in enumerate(s["plan"])
            ]
        seats.append(
            {
                "seat": n,
                "name": name(n),
                "initial": initials[n],
                "me": n == viewer,
                "active": n in (view.get("active_seats") or []),
                "start": n == view.get("start_player"),
                "winner": n in winners,
                "tiles_left": s["tiles_left"],
                "tile_values": s["tile_values"],
                "supply": [
                    {**colour_info(c), "count": s["supply"].get(c, 0)}
                    for c in B.COLOURS
                    if s["supply"].get(c)
                ],
                "stones": s["stones"],
                "scarabs_free": s["scarabs_free"],
                "plan_submitted": s["plan_submitted"],
                "plan": plan,
                "points": s["points"],
                "sites": s["sites"],
                "overseers": s["overseers"],
                "workers": s["workers"],
            }
        )

    # ---------------------------------------------------------------- market
    groups = []
    market = view.get("market") or {"groups": [], "revealed": False}
    for g in market["groups"]:
        counts: dict[str, int] = {}
        for c in g["stones"]:
            counts[c] = counts.get(c, 0) + 1
        bids = []
        for bid in g["bids"]:
            bids.append(
                {
                    "seat": bid["player"],
                    "name": name(bid["player"]),
                    "initial": initials[bid["player"]],
                    "tiles": bid["tiles"],
                    "rings": bid.get("rings"),
                    "total": bid.get("total"),
                    "me": bid["player"] == viewer,
                }
            )
        groups.append(
            {
                "group": g["group"],
                "stones": [colour_info(c) for c in g["stones"]],
                "counts": [
                    {**colour_info(c), "count": counts[c]} for c in B.COLOURS if c in counts
                ],
                "bids": bids,
                "sold": g["sold"],
                "winner": g["winner"],
                "winner_name": name(g["winner"]),
                "bid_acts": acts.all(type="bid", group=g["group"]),
            }
        )

    # ---------------------------------------------------------------- sites and areas
    plan_marks: dict[str, list[int]] = {}
    if my_plan:
        for i, to in enumerate(my_plan):
            if to:
                plan_marks.setdefault(to, []).append(i + 1)

    def node_info(node: str) -> dict[str, Any]:
        found = node_acts.get(node, [])
        return {"acts": found, "plan_marks": plan_marks.get(node, [])}

    sites = {}
    for site in view["sites"]:
        num = site["site"]
        steal = {e["action"]["slot"]: e for e in acts.all(type="steal", site=num)}
        build_acts = acts.all(type="build", site=num)
        build_slots: dict[int, list[dict]] = {}
        for e in build_acts:
            build_slots.setdefault(e["action"]["slot"], []).append(
                {**e, "colour": colour_info(e["action"]["colour"])}
            )
        top = max((lv for lv, st in enumerate(site["levels"]) if any(st)), default=None)
        build_level = next(
            (lv for lv, st in enumerate(site["levels"]) if None in st), len(site["levels"]) - 1
        )
        levels = []
        for lv, stones in enumerate(site["levels"]):
            side = site["level_sides"][lv]
            slots = []
            for k, c in enumerate(stones):
                hidden = site["size"] == "large" and (lv, k) == B.HIDDEN_SLOT
                slots.append(
                    {
                        "slot": k,
                        "position": k + 1,
                        "colour": colour_info(c) if c else None,
                        "hidden": hidden,
                        "steal": steal.get(k) if lv == top else None,
                        "build": bool(build_slots.get(k)) and lv == build_level,
                    }
                )
            levels.append({"level": lv + 1, "side": side, "slots": slots})
        fields = []
        by_area: dict[tuple[str, bool], list[dict]] = {}
        for f in site["fields"]:
            fig = f["figure"]
            entry = {
                "field": f["field"],
                "letter": f["field"].split("-")[1],
                "borders": f["borders"],
                "figure": figure(fig["player"], fig["kind"], fig["index"]) if fig else None,
                **node_info(f["field"]),
            }
            fields.append(entry)
            # rows of at most four fields, each with the area it borders
            row_key = (
                f["borders"],
                len(fields) > 4 and f["borders"] == site["fields"][0]["borders"],
            )
            by_area.setdefault(row_key, []).append(entry)
        presence = [
            {
                "seat": s,
                "name": name(s),
                "initial": initials[s],
                "overseers": site["overseers"][s],
                "workers": site["workers"][s],
            }
            for s in range(view["players"])
            if site["overseers"][s] or site["workers"][s]
        ]
        sites[num] = {
            "site": num,
            "size": site["size"],
            "size_name": _word(SIZES[site["size"]]),
            "in_play": site["in_play"],
            "owner": site["owner"],
            "owner_name": name(site["owner"]),
            "owner_initial": initials[site["owner"]] if site["owner"] is not None else "",
            "finished": site["finished"],
            "type": _word(site["type"]),
            "points": site["points"],
            "stones": site["stones"],
            "capacity": B.CAPACITY[site["size"]],
            "levels": levels,
            "fields": fields,
            "field_groups": [{"area": a, "fields": fs} for (a, _second), fs in by_area.items()],
            "presence": presence,
            "takeover": acts.find(type="takeover", site=num),
            "build_level": build_level + 1,
            "build_slots": [
                {
                    "position": k + 1,
                    "hidden": site["size"] == "large" and (build_level, k) == B.HIDDEN_SLOT,
                    "acts": v,
                }
                for k, v in sorted(build_slots.items())
            ],
        }

    areas = {}
    for a in view["areas"]:
        figs = [figure(f["player"], f["kind"], f["index"]) for f in a["figures"]]
        figs.sort(key=lambda f: (f["seat"], f["kind"] != "overseer", f["index"]))
        areas[a["area"]] = {
            "area": a["area"],
            "neighbours": [n for n in a["neighbours"] if not B.is_field(n)],
            "figures": figs,
            **node_info(a["area"]),
        }

    regions = []
    for r in REGIONS:
        regions.append(
            {
                "areas": [areas[a] for a in r["areas"]],
                "sites": [sites[s] for s in r["sites"]],
                "pharaoh": r["pharaoh"],
                "title": (
                    _("Centre: area 16 and the Pharaoh pyramid")
                    if r["pharaoh"]
                    else _("Areas {inner} and {outer}").format(
                        inner=r["areas"][0], outer=r["areas"][1]
                    )
                ),
            }
        )

    pharaoh = view["pharaoh"]
    ph_levels = []
    filled = pharaoh["count"]
    for side in B.LEVEL_SIDES["pharaoh"]:
        n = side * side
        ph_levels.append({"side": side, "slots": [i < filled for i in range(n)]})
        filled = max(0, filled - n)

    turn = view.get("turn")
    current = view.get("current_player") if view.get("active_seats") else None
    ends = [e for e in acts.entries if e["type"] in END_TYPES]
    return {
        "viewer": viewer,
        "phase": phase,
        "phase_name": _word(PHASES.get(phase, phase)),
        "round": view["round"],
        "start_name": name(view.get("start_player")),
        "current_name": name(current) if current is not None else "",
        "waiting_for": [name(s) for s in view.get("active_seats") or []],
        "finished": view.get("finished"),
        "options": view.get("options") or {},
        "colours": [colour_info(c) for c in B.COLOURS],
        "seats": seats,
        "me": next((s for s in seats if s["me"]), None),
        "market_revealed": market["revealed"],
        "groups": groups,
        "regions": regions,
        "pharaoh": {**pharaoh, "levels": ph_levels},
        "bag": {
            "count": view["bag"]["count"],
            "colours": [
                {**colour_info(c), "count": view["bag"]["colours"].get(c, 0)} for c in B.COLOURS
            ],
        },
        "out": view.get("out_of_game") or {"count": 0},
        "turn": turn,
        "steps_left": turn["steps_left"] if turn else None,
        "show_steps": bool(turn) and phase in ("overseer", "worker"),
        "actions": acts.entries,
        "ends": ends,
        "picker": picker,
        "move_type": move_type,
        "my_plan": [
            {
                "number": i + 1,
                "to": to,
                "at": me["overseers"][i],
                "steps": B.DIST[me["overseers"][i]][to] if to else None,
            }
            for i, to in enumerate(my_plan)
        ]
        if my_plan and me
        else None,
        "version": version,
    }
