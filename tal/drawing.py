"""The valley as an SVG drawing, prepared from one viewer's view.

Positions come from ``tal.layout``; what stands where, and what may be clicked,
from ``ENGINE.view(state, viewer)`` and its legal actions (``BoardActions``), so
the drawing shows exactly what the viewer may know. Moves and plans are offered
for one chosen figure at a time and building for one chosen position, which
keeps the page small: the others are one click (a GET) away.
"""

from __future__ import annotations

import functools
from typing import Any

from games.actions import BoardActions
from games.text import word_in
from tal import layout as L
from tal.engine import board as B
from tal.engine.scoring import best_possible

# Stone colours on the drawing: (fill, letter); the same values as the page's CSS.
STONE_LOOK = {
    "red": ("#c0392b", "#fff"),
    "grey": ("#9a9a9a", "#000"),
    "black": ("#1f1f1f", "#fff"),
    "white": ("#fbfbf7", "#111"),
    "ochre": ("#d9a21b", "#111"),
}


# How far below a target's middle the baseline of its large number lies (the whole
# valley on a phone, board.css): half the height of a digit at that size.
WHOLE_NUMBER_DROP = 15


def node_point(node: str) -> tuple[int, int]:
    """The middle of a field, or the first figure place of an area."""
    if B.is_field(node):
        site, letter = node.split("-")
        box = L.field_boxes(int(site), B.SITES[int(site)][0])[letter]
        return L.centre(box)
    x, y, _per_row = L.AREAS[node]["hub"]
    return x + L.TOKEN // 2, y + L.TOKEN // 2


def _token(fig: dict, x: int, y: int, size: int, pick: bool, chosen: bool) -> dict[str, Any]:
    """A figure drawn at (x, y) (its box's top-left corner): overseers are diamonds,
    workers discs."""
    h = size // 2
    # the hit area of a figure that can be chosen: its whole field, or its place in
    # the area's rows (figures there stand TOKEN + 2 apart)
    pad = (L.FIELD - size) // 2 if size > L.TOKEN else 1
    return {
        "hit": (x - pad, y - pad, size + 2 * pad),
        **fig,
        "x": x,
        "y": y,
        "cx": x + h,
        "cy": y + h,
        "r": h - 3,
        "diamond": f"{x + h},{y} {x + size},{y + h} {x + h},{y + size} {x},{y + h}",
        "big": size > L.TOKEN,
        "pick": pick,
        "chosen": chosen,
    }


def build_slot_key(site: int, slot: int) -> str:
    return f"{site}-{slot}"


# The board's geometry is fixed: worked out once per site and shape, not on every
# drawing (one for each move's answer).
@functools.cache
def _site_geometry(num: int, size: str) -> dict[str, Any]:
    box = L.site_box(num, size)
    x, y = box[0], box[1]
    boxes = L.field_boxes(num, size)
    return {
        "box": box,
        "boxes": boxes,
        "levels": L.level_boxes(num, size),
        "label": L.label_spot(num, size),
        # the field letters' places relative to the site (see letter_sets in draw)
        "letter_at": {
            ch: (fx - x + 3, fy - y + L.FIELD - 4, fx, fy) for ch, (fx, fy) in boxes.items()
        },
    }


@functools.cache
def _slot_places(num: int, size: str, level: int, side: int, count: int) -> list[dict]:
    """Where each position of one level is drawn, and what names it (read only)."""
    lx, ly = L.level_boxes(num, size)[level]
    out = []
    for k in range(count):
        r, col = divmod(k, side)
        sx, sy = lx + col * L.STONE, ly + r * L.STONE
        out.append(
            {
                "slot": k,
                "x": sx,
                "y": sy,
                "tx": sx + L.STONE // 2,
                "ty": sy + 15,
                "hidden": size == "large" and (level, k) == B.HIDDEN_SLOT,
                "key": build_slot_key(num, k),
                "level": level + 1,
                "position": k + 1,
            }
        )
    return out


_AREA_POINTS = {a: L.points(spec["polygon"]) for a, spec in L.AREAS.items()}
_GATES = [{"a": a, "b": b, "x": x, "y": y} for (a, b), (x, y) in L.GATES.items()]
_PHARAOH_PLACES = [
    (px + c * L.PH_STONE, py + r * L.PH_STONE)
    for side, (px, py) in zip(L.PHARAOH_SIDES, L.pharaoh_boxes(), strict=True)
    for r, c in (divmod(k, side) for k in range(side * side))
]


def draw(
    view: dict,
    acts: BoardActions,
    figure: Any,
    names: Any,
    colour_info: Any,
    chosen_fig: str | None,
    chosen_slot: str | None,
) -> dict[str, Any]:
    """Everything the SVG template draws. ``figure(seat, kind, index)`` describes a
    figure, ``colour_info(colour)`` a stone colour (both from ``tal.board``)."""
    viewer = view.get("viewer")
    phase = view["phase"]
    expert = bool((view.get("options") or {}).get("expert"))
    me = next((s for s in view["seats"] if s["seat"] == viewer), None)

    # ---------------------------------------------------------------- which figure moves
    movable: list[dict[str, Any]] = []
    if me is not None and phase in ("overseer", "worker", "plan"):
        # each figure's moves (plans: an overseer's), in one pass over a hundred or so
        by_figure: dict[tuple[Any, Any], list[dict]] = {}
        for e in acts.all(type="plan" if phase == "plan" else "move"):
            action = e["action"]
            kind = "overseer" if phase == "plan" else action.get("figure")
            by_figure.setdefault((kind, action.get("index")), []).append(e)
        for kind in ("overseer", "worker"):
            positions = me["overseers"] if kind == "overseer" else me["workers"]
            for i, pos in enumerate(positions):
                found = by_figure.get((kind, i))
                if found:
                    movable.append({**figure(viewer, kind, i), "at": pos, "acts": found})
    keys = [f["key"] for f in movable]
    pickable = set(keys)
    plan = me.get("plan") if me and phase == "plan" else None
    if chosen_fig not in keys:
        unplanned = [f for f in movable if plan and plan[f["index"]] is None]
        chosen_fig = (unplanned or movable or [{"key": None}])[0]["key"]
    chosen = next((f for f in movable if f["key"] == chosen_fig), None)
    for f in movable:
        f["chosen"] = f is chosen

    targets: dict[str, dict[str, Any]] = {}
    if chosen is not None:
        turn = view.get("turn") or {}
        for e in chosen["acts"]:
            to = e["action"]["to"]
            steps = B.DIST[chosen["at"]][to]
            if phase == "plan":
                other = 1 - chosen["index"]
                other_to = plan[other] if plan else None
                used = B.DIST[me["overseers"][other]][other_to] if other_to else 0
                left = B.STEPS - used - steps
            else:
                left = (turn.get("steps_left") or 0) - steps
            targets[to] = {**e, "steps": steps, "left": left, "stay": to == chosen["at"]}

    def tok(fig: dict, x: int, y: int, size: int) -> dict[str, Any]:
        mine = fig["seat"] == viewer
        pick = mine and fig["key"] in pickable
        return _token(
            fig, x, y, size, pick, pick and chosen is not None and chosen["key"] == fig["key"]
        )

    # ---------------------------------------------------------------- figures on fields
    over_numbers: set[int] = set()  # the steps left shown on targets over a figure

    def target_at(
        node: str, x: int, y: int, size: int, over: bool = False, height: int = 0
    ) -> dict[str, Any] | None:
        t = targets.get(node)
        if t is None:
            return None
        if over:
            over_numbers.add(t["left"])
        tx, ty = x + size - 3, y + 13
        # an area's number as the whole valley on a phone shows it: large, in the middle
        # of the free row (a field's is drawn with the field, valley.py)
        wx, wy = x + size // 2, y + height - 6
        if height:
            ty = y + height - 8  # areas: the number in the free row
        return {
            **t,
            "x": x,
            "y": y,
            "size": size,
            "height": height,
            "tx": tx,
            "ty": ty,
            "wx": wx,
            "wy": wy,
            "over": over,
        }

    def word(value: str | None) -> str:
        return word_in(acts.words, value) if value else ""

    sites = []
    letter_sets: dict[tuple, str] = {}  # letters and their places on a site -> id
    for site in view["sites"]:
        num, size = site["site"], site["size"]
        geometry = _site_geometry(num, size)
        x, y, w, h = geometry["box"]
        letter_at = geometry["letter_at"]
        fields = []
        site_letters = [f["field"].split("-")[1] for f in site["fields"]]
        # The field letters sit alike on every site of one shape: drawn once in
        # <defs> and placed per site (page weight).
        shape = tuple((ch, *letter_at[ch][:2]) for ch in site_letters)
        letters_id = letter_sets.setdefault(shape, f"fl{len(letter_sets)}")
        for f, letter in zip(site["fields"], site_letters, strict=True):
            fx, fy = letter_at[letter][2:]
            fig = f["figure"]
            token = None
            if fig:
                token = tok(figure(fig["player"], fig["kind"], fig["index"]), fx + 3, fy + 3, 28)
            fields.append(
                {
                    "node": f["field"],
                    "letter": letter,
                    "x": fx,
                    "y": fy,
                    "lx": fx + 3,
                    "ly": fy + L.FIELD - 4,
                    "token": token,
                    # a target under a figure is drawn over it, see-through
                    "target": target_at(f["field"], fx, fy, L.FIELD, over=token is not None),
                }
            )

        steal = {e["action"]["slot"]: e for e in acts.all(type="steal", site=num)}
        builds: dict[int, list[dict]] = {}
        for e in acts.all(type="build", site=num):
            builds.setdefault(e["action"]["slot"], []).append(e)
        top = max((lv for lv, st in enumerate(site["levels"]) if any(st)), default=None)
        # stones go onto the lowest level that is not full
        build_level = next((lv for lv, st in enumerate(site["levels"]) if None in st), None)
        levels = []
        for lv, (stones, (lx, ly)) in enumerate(
            zip(site["levels"], geometry["levels"], strict=True)
        ):
            side = site["level_sides"][lv]
            slots = []
            places = _slot_places(num, size, lv, side, len(stones))
            here_steal = steal if lv == top else {}
            here_build = builds if lv == build_level else {}
            for place, c in zip(places, stones, strict=True):
                k = place["slot"]
                slot = {
                    "slot": k,
                    "x": place["x"],
                    "y": place["y"],
                    "tx": place["tx"],
                    "ty": place["ty"],
                    "colour": colour_info(c) if c else None,
                    "hidden": place["hidden"],
                    "steal": here_steal.get(k),
                    "build_key": place["key"] if k in here_build else None,
                    "level": place["level"],
                    "position": place["position"],
                }
                slots.append(slot)
                if k in here_build:
                    builds[k] = [{**e, "slot_info": slot} for e in builds[k]]
            levels.append({"level": lv + 1, "slots": slots, "side": side, "x": lx, "y": ly})
        nx, ny = geometry["label"]
        kind, best = best_possible(size, site["levels"], expert)
        owner = site["owner"]
        sites.append(
            {
                "site": num,
                "size": size,
                "x": x,
                "y": y,
                "w": w,
                "h": h,
                "nx": nx,
                "ny": ny,
                "in_play": site["in_play"],
                "owner": owner,
                "owner_initial": figure(owner, "overseer", 0)["initial"]
                if owner is not None
                else "",
                "owner_name": names(owner) if owner is not None else "",
                "finished": site["finished"],
                "type": word(site["type"]),
                "points": site["points"],
                "best": best,
                "best_type": word(kind),
                "stones": site["stones"],
                "capacity": B.CAPACITY[size],
                "fields": fields,
                "letters": letters_id,
                "levels": levels,
                "builds": builds,
                "takeover": acts.find(type="takeover", site=num),
            }
        )

    # ---------------------------------------------------------------- the chosen build slot
    build_keys = [
        (s, k) for s in sites for k in sorted(s["builds"])
    ]  # every position the viewer may build on
    build_choice = None
    if build_keys:
        picked = next(
            ((s, k) for s, k in build_keys if build_slot_key(s["site"], k) == chosen_slot),
            build_keys[0],
        )
        s, k = picked
        chips = []
        for e in s["builds"][k]:
            levels = [
                list(lv)
                for lv in next(v for v in view["sites"] if v["site"] == s["site"])["levels"]
            ]
            level = e["slot_info"]["level"] - 1
            levels[level][k] = e["action"]["colour"]
            kind, best = best_possible(s["size"], levels, expert)
            chips.append(
                {
                    **e,
                    "colour": colour_info(e["action"]["colour"]),
                    "best": best,
                    "best_type": word(kind),
                }
            )
        build_choice = {
            "site": s["site"],
            "key": build_slot_key(s["site"], k),
            "level": chips[0]["slot_info"]["level"],
            "position": k + 1,
            "hidden": chips[0]["slot_info"]["hidden"],
            "chips": chips,
        }

    # ---------------------------------------------------------------- areas
    areas = []
    for a in view["areas"]:
        spec = L.AREAS[a["area"]]
        figs = [figure(f["player"], f["kind"], f["index"]) for f in a["figures"]]
        figs.sort(key=lambda f: (f["seat"], f["kind"] != "overseer", f["index"]))
        slots = L.hub_slots(a["area"], len(figs))
        tokens = [tok(f, sx, sy, L.TOKEN) for f, (sx, sy) in zip(figs, slots, strict=True)]
        tx, ty, tw, th = L.hub_target(a["area"], len(figs))
        lx, ly = spec["label"]
        areas.append(
            {
                "area": a["area"],
                "points": _AREA_POINTS[a["area"]],
                "lx": lx,
                "ly": ly,
                "tokens": tokens,
                # figures stand on the box (a click on one chooses it); the last row
                # stays free to click
                "target": target_at(a["area"], tx, ty, tw, height=th),
                "neighbours": [n for n in a["neighbours"] if not B.is_field(n)],
            }
        )

    # ---------------------------------------------------------------- plan arrows (own, secret)
    arrows = []
    if plan and me:
        for i, to in enumerate(plan):
            at = me["overseers"][i]
            if to and to != at:
                (x1, y1), (x2, y2) = node_point(at), node_point(to)
                arrows.append({"number": i + 1, "x1": x1, "y1": y1, "x2": x2, "y2": y2, "to": to})

    pharaoh = view["pharaoh"]
    filled = pharaoh["count"]
    ph_slots = [{"x": x, "y": y, "full": k < filled} for k, (x, y) in enumerate(_PHARAOH_PLACES)]
    px, py = L.PHARAOH_AT

    # On a phone the board is drawn as large as its smallest clickable thing needs
    # for a 40 px tap target (board.css): stones, figures in an area, or fields.
    if any(
        s["takeover"] or s["builds"] or any(k["steal"] for lv in s["levels"] for k in lv["slots"])
        for s in sites
    ):
        tap = "stones"
    elif any(t["pick"] for a in areas for t in a["tokens"]):
        tap = "figures"
    else:
        tap = "fields"

    return {
        "width": L.WIDTH,
        "height": L.HEIGHT,
        "outline": L.points([L.APEX, L.RIGHT, L.LEFT]),
        "sites_out": any(not s["in_play"] for s in sites),
        # A game started under rules version 1 still lets figures stand on the fields of
        # sites out of play (ruling 19 of tal.engine): the legend says what for.
        "targets_out": any(f["target"] for s in sites if not s["in_play"] for f in s["fields"]),
        "inner": L.points([L.MID_L, L.MID_R, L.MID_B]),
        "stone": L.STONE,
        "stone_mid": L.STONE / 2,
        "letter_sets": [{"id": i, "letters": shape} for shape, i in letter_sets.items()],
        "step_numbers": sorted({t["left"] for t in targets.values()}),
        "over_numbers": sorted(over_numbers),
        "stone_base": L.STONE - 5,
        "looks": [
            {**colour_info(c), "fill": STONE_LOOK[c][0], "ink": STONE_LOOK[c][1]} for c in B.COLOURS
        ],
        "field": L.FIELD,
        "whole_drop": WHOLE_NUMBER_DROP,
        # a level's empty positions are drawn as one block (page weight)
        "empty_levels": [
            {
                "side": side,
                "cells": [(c * L.STONE, r * L.STONE) for r in range(side) for c in range(side)],
            }
            for side in sorted({lv["side"] for s in sites for lv in s["levels"]})
        ],
        "tap": tap,
        "ph_stone": L.PH_STONE,
        "areas": areas,
        "gates": _GATES,
        "sites": sites,
        "movable": movable,
        "chosen": chosen,
        "arrows": arrows,
        "build_choice": build_choice,
        "pharaoh": {
            "slots": ph_slots,
            "count": pharaoh["count"],
            "capacity": pharaoh["capacity"],
            "x": px,
            "y": py + 4 * L.PH_STONE + 16,
        },
    }
