"""The story of a finished game of King of Siam for the end-of-game review (``review``):
the followers each player had won after every position, and the eight power struggles:
who took control of each province and which followers each player took meanwhile. Read
from the public views (``ENGINE.view(state, None)``) alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from enginekit import N_, Message, msg

from .scores import POINTS_LABEL


def _won(seat: dict[str, Any]) -> int:
    return sum(seat["followers"].values())


def _outcome(view: dict[str, Any], takeover: dict[str, Any]) -> Message:
    provinces = {p["id"]: p["name"] for p in view["provinces"]}
    factions = {f["id"]: f["name"] for f in view["factions"]}
    province = provinces[takeover["province"]]
    if takeover["controller"] in factions:
        return msg(
            N_("{faction} take control of {province}."),
            faction=factions[takeover["controller"]],
            province=province,
        )
    return msg(
        N_("No faction leads in {province}: the {invader} march in."),
        province=province,
        invader=view["invader"]["name"],
    )


def _taken(view: dict[str, Any], before: list[dict], after: list[dict]) -> list[list[Message]]:
    """Per seat: the followers of each faction won between two positions."""
    names = {f["id"]: f["name"] for f in view["factions"]}
    return [
        [
            msg(N_("{faction} ×{n}"), faction=names[f], n=now[f] - was["followers"][f])
            for f in names
            if now[f] > was["followers"][f]
        ]
        for was, now in ((b, a["followers"]) for b, a in zip(before, after, strict=True))
    ]


def story(views: Iterable[dict[str, Any]]) -> dict[str, Any]:
    points: list[list[int]] = []
    chapters: list[dict[str, Any]] = []
    start: list[dict] = []  # the seats when the struggle under way began
    resolved = 0
    view: dict[str, Any] = {}
    for position, view in enumerate(views):
        if not points:
            points = [[] for _ in view["seats"]]
            start = view["seats"]
        for seat in view["seats"]:
            points[seat["seat"]].append(_won(seat))
        for takeover in view["takeovers"][resolved:]:
            resolved += 1
            chapters.append(
                {
                    "at": position,
                    "title": msg(N_("Power struggle {n}"), n=resolved),
                    "lines": [_outcome(view, takeover)],
                    "seats": _taken(view, start, view["seats"]),
                }
            )
            start = view["seats"]
    if view and (not chapters or chapters[-1]["at"] != len(points[0]) - 1):
        # followers taken after the last struggle, before the game ended
        last = len(points[0]) - 1
        seats = _taken(view, start, view["seats"])
        chapters.append({"at": last, "title": msg(N_("The end")), "lines": [], "seats": seats})
    return {"label": POINTS_LABEL, "points": points, "chapters": chapters}
