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

import json
from json.encoder import encode_basestring_ascii
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games.actions import BoardActions
from games.text import join_names, word_in
from tal.drawing import draw
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

# The board's own sentences, translated through the build's memo (``tr`` in build).
SEAT_N = gettext_noop("Seat {n}")
FIGURE_TITLE = gettext_noop("{player}: {kind} {number}")
SOLD_TO = gettext_noop("Sold to {name}")
WAITING_FOR = gettext_noop("Waiting for the plans of: {names}")
KIND_NAMES = {"overseer": gettext_noop("overseer"), "worker": gettext_noop("worker")}

END_TYPES = ("end_bids", "end_moves", "submit_plan", "end_steal", "end_takeover", "end_build")


def _word(value: str | None, words: dict | None = None) -> str:
    """``words``: the translations of one build so far (``games.text.word_in``)."""
    if not value:
        return ""
    return word_in(words, value) if words is not None else _(value)


def colour_info(colour: str, words: dict | None = None) -> dict[str, str]:
    name = _word(colour, words)
    return {"id": colour, "name": name, "initial": name[:1].upper()}


def _initials(view: dict, names: dict[int, str]) -> dict[int, str]:
    seats = [s["seat"] for s in view["seats"]]
    initials = {s: (names.get(s) or "?")[:1].upper() for s in seats}
    if len(set(initials.values())) < len(seats):
        initials = {s: str(s + 1) for s in seats}
    return initials


def full_stop(text: str) -> str:
    """End a sentence once, also after a name that ends in a full stop ("Carla K.")."""
    return text if text.endswith(".") else text + "."


def _attr_safe(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # SafeString, not mark_safe: the same for a str, without mark_safe's check for
    # lazy arguments (one call per click target)
    return SafeString(text.replace("'", "&#x27;"))


def attr_json(value: Any) -> str:
    """JSON for an attribute in single quotes: double quotes stay as they are, which
    keeps the many click targets of the drawn board small."""
    return _attr_safe(json.dumps(value, separators=(",", ":")))


def action_attr(encoded: str) -> str:
    """``attr_json({"action": encoded})``, written out: one per click target."""
    return _attr_safe('{"action":' + encode_basestring_ascii(encoded) + "}")


def build(
    view: dict,
    player_names: dict[int, str],
    version: str = "",
    chosen_fig: str | None = None,
    chosen_slot: str | None = None,
    ended: bool = False,
) -> dict[str, Any]:
    """Everything the board template draws, from one viewer's view.

    ``ended``: the site ended the game before the rules did (``BoardPage.cut_short``)."""
    acts = BoardActions(view, player_names, version)
    for e in acts.entries:
        # the page's token comes from the drawing's root (htmx merges hx-vals upwards)
        e["av"] = action_attr(e["json"])
    viewer = view.get("viewer")
    phase = view["phase"]
    initials = _initials(view, player_names)
    # Every word and sentence of the board translated once per build: the same few
    # (colours, kinds, titles) are asked for hundreds of times, and each gettext
    # looks up the active language anew. Shared with the actions' labels.
    words = acts.words

    def tr(message: str) -> str:
        return word_in(words, message)

    def name(seat: int | None) -> str:
        if seat is None:
            return ""
        return player_names.get(seat) or tr(SEAT_N).format(n=seat + 1)

    colours = {c: colour_info(c, words) for c in B.COLOURS}

    def colour(c: str) -> dict[str, str]:
        """``colour_info``; the same dict for each use of a colour (read only)."""
        found = colours.get(c)
        return found if found is not None else colour_info(c, words)

    kind_names = {kind: tr(word) for kind, word in KIND_NAMES.items()}
    figure_title = tr(FIGURE_TITLE)
    figures: dict[tuple[int, str, int], dict[str, Any]] = {}

    def figure(seat: int, kind: str, index: int) -> dict[str, Any]:
        """A figure's description, made once per build (read only: callers copy it)."""
        found = figures.get((seat, kind, index))
        if found is None:
            found = figures[(seat, kind, index)] = {
                "seat": seat,
                "kind": kind,
                "index": index,
                "number": index + 1,
                "key": f"{kind[0]}{index}",
                "initial": initials[seat],
                "mine": seat == viewer,
                "title": figure_title.format(
                    player=name(seat), kind=kind_names[kind], number=index + 1
                ),
            }
        return found

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
                    {**colour(c), "count": s["supply"].get(c, 0)}
                    for c in B.COLOURS
                    if s["supply"].get(c)
                ],
                "stones": s["stones"],
                "scarabs_free": s["scarabs_free"],
                "plan_submitted": s["plan_submitted"],
                "plan": plan,
                "points": s["points"],
                "sites": s["sites"],
            }
        )
    me = next((s for s in seats if s["me"]), None)

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
                "stones": [colour(c) for c in g["stones"]],
                "counts": [{**colour(c), "count": counts[c]} for c in B.COLOURS if c in counts],
                "bids": bids,
                "sold": g["sold"],
                "winner": g["winner"],
                "sold_to": full_stop(tr(SOLD_TO).format(name=name(g["winner"])))
                if g["winner"] is not None
                else "",
                "bid_acts": acts.all(type="bid", group=g["group"]),
            }
        )

    # ---------------------------------------------------------------- turn ending buttons
    ends = []
    for e in acts.entries:
        if e["type"] not in END_TYPES:
            continue
        confirm = ""
        if e["type"] == "end_build" and me and me["stones"]:
            confirm = ngettext(
                "Finish building? Your last stone goes onto the Pharaoh pyramid and scores "
                "nothing.",
                "Finish building? Your {n} remaining stones go onto the Pharaoh pyramid and "
                "score nothing.",
                me["stones"],
            ).format(n=me["stones"])
        ends.append({**e, "confirm": confirm})

    drawing = draw(view, acts, figure, name, colour, chosen_fig, chosen_slot)

    turn = view.get("turn")
    current = view.get("current_player") if view.get("active_seats") else None
    if phase == "plan":
        # from the view's own marks, so a past position (no active seats) names them too
        waiting = [s["name"] for s in seats if s["plan_submitted"] is False]
    else:
        waiting = [name(s) for s in view.get("active_seats") or []]
    return {
        "viewer": viewer,
        "phase": phase,
        "phase_name": _word(PHASES.get(phase, phase), words),
        "round": view["round"],
        "start_name": name(view.get("start_player")),
        "current_name": name(current) if current is not None else "",
        "waiting_for": waiting,
        "waiting_text": full_stop(tr(WAITING_FOR).format(names=", ".join(waiting)))
        if waiting
        else "",
        "finished": view.get("finished") or ended,
        "options": view.get("options") or {},
        "colours": [colour(c) for c in B.COLOURS],
        "seats": seats,
        "me": me,
        "market_revealed": market["revealed"],
        "groups": groups,
        "pharaoh": view["pharaoh"],
        "bag": {
            "count": view["bag"]["count"],
            "colours": [
                {**colour(c), "count": view["bag"]["colours"].get(c, 0)} for c in B.COLOURS
            ],
        },
        "out": view.get("out_of_game") or {"count": 0},
        "turn": turn,
        "steps_left": turn["steps_left"] if turn else None,
        "show_steps": bool(turn) and phase in ("overseer", "worker"),
        "actions": acts.entries,
        "ends": ends,
        "d": drawing,
        "summary": summary(view, name) if view.get("finished") else None,
        "version": version,
        "root_vals": attr_json({"version": version}),
    }


def summary(view: dict, name: Any) -> dict[str, Any] | None:
    """The end of the game: points, every scoring pyramid, the winner's margin and why
    the game ended."""
    result = view.get("result")
    if not result:
        return None
    details = result.get("details") or {}
    points = details.get("points") or [s["points"] for s in view["seats"]]
    pyramids = details.get("pyramids") or []
    rows = []
    for seat in result["ranking"]:
        own = [p for p in pyramids if p["player"] == seat]
        rows.append(
            {
                "seat": seat,
                "name": name(seat),
                "points": points[seat],
                "winner": seat in result["winners"],
                "pyramids": [
                    {
                        "site": p["site"],
                        "size": _word(SIZES[p["size"]]),
                        "type": _word(p["type"]),
                        "points": p["points"],
                    }
                    for p in own
                ],
            }
        )
    winners = [name(s) for s in result["winners"]]
    best = points[result["ranking"][0]]
    others = [points[s] for s in result["ranking"] if s not in result["winners"]]
    if len(winners) > 1:
        decided = _(
            "{names} share the win with {n} points each: the rule book names no tie-break."
        ).format(names=join_names(winners), n=best)
    elif others:
        decided = ngettext(
            "{name} wins with {n} points, {margin} point ahead of the next player.",
            "{name} wins with {n} points, {margin} points ahead of the next player.",
            best - max(others),
        ).format(name=winners[0], n=best, margin=best - max(others))
    else:
        decided = _("{name} wins with {n} points.").format(name=winners[0], n=best)
    return {
        "rows": rows,
        "decided": decided,
        "reason": result.get("reason"),
        "rounds": details.get("rounds"),
    }
