"""The story of a finished game of Tal der Könige for the end-of-game review (``review``):
each player's points after every position, each round's end with the points then, and
each pyramid as it was finished (whose, its type, its points). Read from the public
views (``ENGINE.view(state, None)``) alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from enginekit import N_, Message, msg

from .scores import POINTS_LABEL


def _finished(before: dict[str, Any], after: dict[str, Any]) -> list[Message]:
    return [
        msg(
            N_("{player} finishes the pyramid on site {site}: {kind}, worth {points}."),
            player=site["owner"],
            site=site["site"],
            kind=site["type"] or "",
            points=site["points"],
        )
        for was, site in zip(before["sites"], after["sites"], strict=True)
        if site["finished"] and not was["finished"] and site["owner"] is not None
    ]


def story(views: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The review reads each seat's points at a round's end from ``points``."""
    points: list[list[int]] = []
    chapters: list[dict[str, Any]] = []
    pyramids: list[Message] = []  # finished in the round under way
    before: dict[str, Any] = {}
    for position, view in enumerate(views):
        if not points:
            points = [[] for _ in view["seats"]]
        for seat in view["seats"]:
            points[seat["seat"]].append(seat["points"])
        if before:
            pyramids += _finished(before, view)
            if view["round"] != before["round"] or (view["finished"] and not before["finished"]):
                chapters.append(
                    {
                        "at": position,
                        "title": msg(N_("Round {round}"), round=before["round"]),
                        "lines": pyramids,
                    }
                )
                pyramids = []
        before = view
    return {"label": POINTS_LABEL, "points": points, "chapters": chapters}
