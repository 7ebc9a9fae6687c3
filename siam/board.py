"""The King of Siam / King of Saba board, prepared for the templates.

Everything here is derived from ``ENGINE.view(state, viewer)`` (never from the
engine's state), so the board, the text view and the history show exactly what
the viewer may know. The view's legal actions are matched to what can be
clicked: cards, the pass button, track tiles, provinces and followers.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext_lazy

from games.actions import BoardActions
from games.text import word

from .layout import LAYOUTS, LOOKS, PLAQUE_H, PLAQUE_W, corners

# Display words that reach the page only as engine data; listed so that
# ``makemessages`` collects them for the catalogue.
ENGINE_WORDS = [
    gettext_noop("King of Siam"),
    gettext_noop("King of Saba"),
    gettext_noop("Siam"),
    gettext_noop("Ethiopia"),
    gettext_noop("Tigray"),
    gettext_noop("Shewa"),
    gettext_noop("British"),
    gettext_noop("Italians"),
    gettext_noop("Chiang Mai"),
    gettext_noop("Sukothai"),
    gettext_noop("Korat"),
    gettext_noop("Ubon"),
    gettext_noop("Bangkok"),
    gettext_noop("Ratchaburi"),
    gettext_noop("Nakhon Si Thammarat"),
    gettext_noop("Pattani"),
    gettext_noop("Begemder"),
    gettext_noop("Gojjam"),
    gettext_noop("Wollo"),
    gettext_noop("Herarghe"),
    gettext_noop("Wollega"),
    gettext_noop("Sidamo"),
    gettext_noop("yellow"),
    gettext_noop("red"),
    gettext_noop("blue"),
    gettext_noop("green"),
]

# Card and faction names, in the message context of their kind (games.text.word):
# a faction card bears its faction's name, which German writes differently for
# the faction ("Malai" is the card, "Malaien" the faction).
CARD_NAMES = [
    pgettext_lazy("card", "Maharacha"),
    pgettext_lazy("card", "Khon Thai"),
    pgettext_lazy("card", "Saba"),
    pgettext_lazy("card", "Ityoppaya"),
    pgettext_lazy("card", "1 vs 1"),
    pgettext_lazy("card", "2 vs 1"),
    pgettext_lazy("card", "Rama"),
    pgettext_lazy("card", "Lao"),
    pgettext_lazy("card", "Malai"),
    pgettext_lazy("card", "Amhara"),
    pgettext_lazy("card", "Tigray"),
    pgettext_lazy("card", "Shewa"),
]
FACTION_NAMES = [
    pgettext_lazy("faction", "Rama"),
    pgettext_lazy("faction", "Lao"),
    pgettext_lazy("faction", "Malai"),
    pgettext_lazy("faction", "Amhara"),
    pgettext_lazy("faction", "Tigray"),
    pgettext_lazy("faction", "Shewa"),
]

CARD_HELP = {
    "king": gettext_noop(
        "Swap two face-up province tiles on the track; one of them gets a King marker."
    ),
    "free": gettext_noop("Place one follower of each faction from the supply."),
    "swap11": gettext_noop("Swap a follower with one in any other province."),
    "swap21": gettext_noop(
        "Swap two followers of one province with one follower of a neighbouring province."
    ),
    "faction": gettext_noop("Place two {faction} followers next to a province they hold."),
}

STAGE_TYPES = {"tile", "king", "place", "pick", "take"}


def _word(value: str | None, kind: str | None = None) -> str:
    return word(value, kind) if value else ""


def _card(value: str | None) -> str:
    return _word(value, "card")


def _points(pts: list[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in pts)


def _name_lines(name: str) -> tuple[int, list[tuple[str, int]]]:
    """Font size and (line, baseline) pairs that fit a province name on its plaque."""
    if len(name) <= 11:
        return 15, [(name, 20)]
    if len(name) <= 14 or " " not in name:
        return 13, [(name, 20)]
    words = name.split()
    cut = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(name) / 2))
    return 13, [(" ".join(words[:cut]), 13), (" ".join(words[cut:]), 26)]


def changed_provinces(before: dict | None, after: dict) -> set[str]:
    """Provinces whose followers, controller or King marker differ between two
    views of the same viewer (the views hold only what that viewer may know)."""
    if before is None:
        return set()

    def looks(view: dict) -> dict[str, tuple]:
        return {
            p["id"]: (
                sorted((f, n) for f, n in p["followers"].items() if n),
                p["controller"],
                p["king"],
            )
            for p in view["provinces"]
        }

    old, new = looks(before), looks(after)
    return {pid for pid, seen in new.items() if old.get(pid) != seen}


def new_cards(before: dict | None, after: dict) -> dict[int, int]:
    """Per seat, how many cards were played since ``before``."""
    if before is None:
        return {}
    old = {s["seat"]: len(s["played"]) for s in before["seats"]}
    return {s["seat"]: max(0, len(s["played"]) - old.get(s["seat"], 0)) for s in after["seats"]}


def build(
    view: dict,
    player_names: dict[int, str],
    version: str = "",
    before: dict | None = None,
    before_last: dict | None = None,
) -> dict[str, Any]:
    """Everything the board templates draw, from one viewer's view.

    ``before`` is the viewer's view when they last looked (its changes are
    marked); ``before_last`` the view before the last move (marked always).
    """
    changed = changed_provinces(before, view)
    last = changed_provinces(before_last, view)
    cards_since = new_cards(before, view)
    map_id = view["map"]
    layout = LAYOUTS[map_id]
    look = LOOKS[map_id]
    acts = BoardActions(view, player_names, version)
    # The page empties active_seats where nothing can be played (a finished or
    # resigned game, a past position): then nobody is shown to move.
    movers = set(view.get("active_seats") or [])
    factions = []
    for i, f in enumerate(view["factions"]):
        fill, ink = look["colours"][i]
        factions.append(
            {
                "id": f["id"],
                "index": i,
                "name": _word(f["name"], "faction"),
                "letter": _word(f["name"], "faction")[:1].upper(),
                "colour": _word(f["colour"]),
                "fill": fill,
                "ink": ink,
                "home": f["home"],
                "supply": view["supply"].get(f["id"], 0),
                "removed": view["removed"].get(f["id"], 0),
            }
        )
    fby = {f["id"]: f for f in factions}
    invader = {"id": view["invader"]["id"], "name": _word(view["invader"]["name"])}
    pending = view.get("pending")
    picked: set[tuple[str, str]] = set()
    picked_tiles: set[str] = set()
    if pending:
        for p in pending.get("picks") or []:
            if isinstance(p, dict):
                picked.add((p["province"], p["faction"]))
            else:
                picked_tiles.add(p)
    names = {p["id"]: _word(p["name"]) for p in view["provinces"]}

    def controller(cid: str | None) -> dict | None:
        if cid is None:
            return None
        if cid == invader["id"]:
            return {"id": cid, "name": invader["name"], "invader": True, "map": map_id}
        f = fby[cid]
        return {
            "id": cid,
            "name": f["name"],
            "invader": False,
            "fill": f["fill"],
            "ink": f["ink"],
            "letter": f["letter"],
        }

    provinces = []
    for p in view["provinces"]:
        geo = layout["provinces"][p["id"]]
        px, py = geo["plaque"]
        followers = []
        for k, f in enumerate(factions):
            n = p["followers"].get(f["id"], 0)
            act = (
                acts.find(type="place", province=p["id"], faction=f["id"])
                or acts.find(type="pick", province=p["id"], faction=f["id"])
                or acts.find(type="take", province=p["id"], faction=f["id"])
            )
            followers.append(
                {
                    **{key: f[key] for key in ("id", "name", "letter", "fill", "ink")},
                    "count": n,
                    "x": 3 + k * 42,
                    "act": act,
                    "picked": (p["id"], f["id"]) in picked,
                }
            )
        # A province itself is clickable when exactly one action is about it as a whole:
        # a tile or King marker choice, or placing where only one faction may go.
        whole = [
            e
            for e in acts.entries
            if e["action"].get("province") == p["id"] and e["type"] in ("tile", "king", "place")
        ]
        ctrl = controller(p["controller"])
        summary = ", ".join(f"{f['count']} {f['name']}" for f in followers)
        if ctrl:
            desc = _("{province}: held by the {power}").format(
                province=names[p["id"]], power=ctrl["name"]
            )
        else:
            desc = _("{province}: {followers}").format(province=names[p["id"]], followers=summary)
        if p["id"] in last:
            desc += " " + _("(changed by the last move)")
        elif p["id"] in changed:
            desc += " " + _("(changed since you last looked)")
        cx, cy = geo["capital"]
        inside = px <= cx <= px + PLAQUE_W and py <= cy <= py + PLAQUE_H
        provinces.append(
            {
                "id": p["id"],
                "name": names[p["id"]],
                "name_size": _name_lines(names[p["id"]])[0],
                "name_lines": _name_lines(names[p["id"]])[1],
                "points": _points(corners(layout, p["id"])),
                "capital": (cx, cy),
                "leader": not inside,
                "plaque": (px, py),
                "plaque_mid": (px + PLAQUE_W // 2, py + PLAQUE_H // 2),
                "home_of": fby[p["home_of"]] if p["home_of"] else None,
                "followers": followers,
                "total": sum(f["count"] for f in followers),
                "controller": ctrl,
                "resolved": p["resolved"],
                "king": p["king"],
                "current": p["current"],
                "track_position": p["track_position"],
                "desert": p["id"] in layout.get("deserts", ()),
                "act": whole[0] if len(whole) == 1 else None,
                "selected": p["id"] in picked_tiles,
                "desc": desc,
                "changed": p["id"] in changed,
                "last": p["id"] in last,
                "neighbours": [names[q] for q in p["adjacent"]],
            }
        )

    track = []
    for t in view["track"]:
        act = acts.find(type="tile", province=t["province"]) or acts.find(
            type="king", province=t["province"]
        )
        track.append(
            {
                **t,
                "name": _word(t["name"]),
                "controller": controller(t["controller"]),
                "act": act,
                "selected": t["province"] in picked_tiles,
            }
        )

    card_info = {c["id"]: c for c in view["cards"]}

    def card_help(cid: str) -> str:
        c = card_info[cid]
        key = CARD_HELP[c["kind"]]
        return _(key).format(faction=_word(c["name"], "faction"))

    seats = []
    for s in view["seats"]:
        n = s["seat"]
        hand = [
            {
                "id": cid,
                "name": _card(card_info[cid]["name"]),
                "kind": card_info[cid]["kind"],
                "count": count,
                "help": card_help(cid),
                "act": acts.find(type="play", card=cid) if n == view.get("viewer") else None,
            }
            for cid, count in s["cards_left"].items()
            if count
        ]
        seats.append(
            {
                "seat": n,
                "name": player_names.get(n, _("Seat {n}").format(n=n + 1)),
                "aid": s["aid"],
                "me": n == view.get("viewer"),
                "active": s["active"] and n in movers,
                "passed": s["passed"],
                "followers": [
                    {
                        **{k: f[k] for k in ("id", "name", "letter", "fill", "ink")},
                        "count": s["followers"].get(f["id"], 0),
                    }
                    for f in factions
                ],
                "total": sum(s["followers"].values()),
                "sets": s["sets"],
                "hand": hand,
                "cards_left": s["cards_left_count"],
                "played": [_card(card_info[c]["name"]) for c in s["played"]],
                "new_cards": cards_since.get(n, 0),
                "top_card": _card(card_info[s["top_card"]]["name"]) if s["top_card"] else "",
                "team": s.get("team"),
                "partner": player_names.get(s["partner"]) if s.get("partner") is not None else None,
            }
        )

    current = next((p for p in provinces if p["current"]), None)
    held = {f["id"]: 0 for f in factions}
    held[invader["id"]] = 0
    for p in provinces:
        if p["controller"]:
            held[p["controller"]["id"]] += 1
    powers = [
        {
            "name": f["name"],
            "letter": f["letter"],
            "fill": f["fill"],
            "ink": f["ink"],
            "count": held[f["id"]],
            "invader": False,
        }
        for f in factions
    ] + [{"name": invader["name"], "count": held[invader["id"]], "invader": True, "map": map_id}]

    pending_info = None
    if pending:
        pending_info = {
            "player": player_names.get(pending["seat"], ""),
            "card": _card(pending["card_name"]),
            "help": card_help(pending["card"]),
            "to_place": [fby[f]["name"] for f in pending.get("to_place") or []],
            "picks": [
                _("{faction} in {province}").format(
                    faction=fby[p["faction"]]["name"], province=names[p["province"]]
                )
                if isinstance(p, dict)
                else names[p]
                for p in pending.get("picks") or []
            ],
            "fallback": pending.get("fallback"),
            "last_card": pending.get("last_card"),
        }

    no_undo = None
    if view.get("no_undo"):
        nu = view["no_undo"]
        no_undo = {
            "card": _card(card_info[nu["card"]]["name"]),
            "moves": [
                _("{followers} out of {province}").format(
                    followers=", ".join(fby[f]["name"] for f in d["gives"]),
                    province=names[d["province"]],
                )
                for d in nu["forbidden"]
            ],
        }

    turn = view.get("turn") if view.get("turn") in movers else None
    return {
        "map": map_id,
        "layout": {"width": layout["width"], "height": layout["height"]},
        "plaque": {"w": PLAQUE_W, "h": PLAQUE_H},
        "title": _word(view["map_name"]),
        "land": _word(view["land"]),
        "factions": factions,
        "invader": invader,
        "provinces": provinces,
        "provinces_by_track": sorted(provinces, key=lambda p: p["track_position"]),
        "track": track,
        "current": current,
        "struggle": view.get("struggle"),
        "passes": view.get("passes", 0),
        "players": view["players"],
        "king_markers_left": view.get("king_markers_left", 0),
        "removed_any": any(f["removed"] for f in factions),
        "powers": powers,
        "seats": seats,
        "turn_name": player_names.get(turn, "") if turn is not None else "",
        "pending": pending_info,
        "no_undo": no_undo,
        "cards_left_total": view.get("cards_left_total", 0),
        "actions": acts.entries,
        "pass_act": acts.find(type="pass"),
        "play_acts": acts.all(type="play"),
        "stage_acts": [e for e in acts.entries if e["type"] in STAGE_TYPES],
        "marked_since": bool(changed) or any(cards_since.values()),
        "summary": summary_of(view, player_names, factions, invader)
        if view.get("result")
        else None,
    }


def summary_of(view: dict, player_names: dict[int, str], factions: list, invader: dict) -> dict:
    """The end-of-game summary from the engine's result."""
    result = view["result"]
    d = result.get("details") or {}
    winners = set(result.get("winners") or [])
    ruling = d.get("ruling")
    second = d.get("second")
    provinces = d.get("provinces") or {}
    fby = {f["id"]: f for f in factions}
    rows = []
    for seat in result.get("ranking") or []:
        followers = (d.get("followers") or [{}] * (seat + 1))[seat]
        rows.append(
            {
                "seat": seat,
                "name": player_names.get(seat, ""),
                "winner": seat in winners,
                "counts": [
                    {
                        "count": followers.get(f["id"], 0),
                        "ruling": f["id"] == ruling,
                        "second": f["id"] == second,
                    }
                    for f in factions
                ],
                "sets": (d.get("sets") or [0] * (seat + 1))[seat],
            }
        )
    if d.get("ending") == "invaders":
        ruling_name = invader["name"]
    else:
        ruling_name = fby[ruling]["name"] if ruling in fby else ""
    tiebreak = {
        None: "",
        "second_faction": _("Tie broken by followers of the second faction."),
        "last_card": _("Tie broken by who played a card most recently."),
        "shared": _("No rule separates the tied players: they share the win."),
    }.get(d.get("tiebreak"), "")
    return {
        "ending": d.get("ending"),
        "ruling": ruling_name,
        "ruling_provinces": provinces.get(ruling, 0) if ruling else 0,
        "second": fby[second]["name"] if second in fby else "",
        "provinces": [{"name": f["name"], "count": provinces.get(f["id"], 0)} for f in factions]
        + [{"name": invader["name"], "count": provinces.get(invader["id"], 0)}],
        "rows": rows,
        "winners": [player_names.get(w, "") for w in result.get("winners") or []],
        "reason": result.get("reason"),
        "tiebreak": tiebreak,
        "teams": d.get("teams"),
        "team_sets": d.get("team_sets"),
    }
