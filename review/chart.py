"""The review's chart as plain geometry for an SVG drawn on the server: each seat's
points as a step line over the positions, and one link per chapter (a struggle, a
round) to that position in the history."""

from __future__ import annotations

import math
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from games.numbering import Numbering

WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 28
# Told apart without colour too: each seat's line has its own dash pattern.
DASHES = ["", "7 4", "2 3", "9 3 2 3"]


def _n(value: float) -> str:
    """A coordinate as SVG reads it, whatever the reader's language (no decimal comma)."""
    return f"{value:.1f}"


def _scale_top(highest: int) -> tuple[int, int]:
    """A round top for the y axis and the step between its ticks (at most 5 steps)."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if highest <= 5 * step:
            return max(step, math.ceil(highest / step) * step), step
    return highest, highest


def _steps(values: list[int], x, y) -> str:
    """The polyline of a value that changes at some positions and holds between them."""
    points = [(x(0), y(values[0]))]
    for position in range(1, len(values)):
        if values[position] != values[position - 1]:
            points += [(x(position), y(values[position - 1])), (x(position), y(values[position]))]
    points.append((x(len(values) - 1), y(values[-1])))
    return " ".join(f"{a:.1f},{b:.1f}" for a, b in points)


def draw(
    story: dict[str, Any], game, names: dict[int, str], numbers: Numbering, at: int | None
) -> dict[str, Any]:
    """What the template draws. ``numbers``: the viewer's move numbers (the links and the
    labels say the move as the viewer's history counts it); ``at``: the past position
    shown now, by the viewer's number, marked on the chart."""
    # On the viewer's own numbers, not the raw positions: the spacing of a raw axis would
    # tell how many secret steps (Tal's plan clicks) the other seats took.
    positions = numbers.positions()
    series = [[values[position] for position in positions] for values in story["points"]]
    last = max(numbers.total, 1)
    top, step = _scale_top(max(max(values) for values in series))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(position: int) -> float:
        return LEFT + inner_w * position / last

    def y(value: int) -> float:
        return TOP + inner_h * (1 - value / top)

    page, board = game.get_absolute_url(), reverse("game_board", args=[game.pk])
    chapters, before = [], [values[0] for values in series]  # Siam deals followers first
    labelled = -LEFT  # where the last chapter number was written: no two overlap
    for number, chapter in enumerate(story["chapters"], start=1):
        move = position = numbers.shown(chapter["at"])
        totals = [values[position] for values in series]
        lines = chapter.get("seats") or [[] for _ in series]
        shows_number = x(position) - labelled >= 16
        labelled = x(position) if shows_number else labelled
        chapters.append(
            {
                **chapter,
                "number": number,
                "number_label": number if shows_number else "",
                "move": move,
                "href": f"{page}?at={move}",
                "board_href": f"{board}?at={move}",
                "x": _n(x(position)),
                "hit_x": _n(x(position) - 9),
                # side by side, a little apart: seats level with each other stay visible
                "dots": [
                    {
                        "cx": _n(x(position) + 4 * (s - (len(series) - 1) / 2)),
                        "cy": _n(y(v)),
                        "seat": s,
                    }
                    for s, v in enumerate(totals)
                ],
                "cells": [
                    {
                        "seat": s,
                        "total": v,
                        "gain": f"{v - before[s]:+d}" if v != before[s] else "",
                        "lines": lines[s],
                    }
                    for s, v in enumerate(totals)
                ],
                "current": move == at,
            }
        )
        before = totals
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "hit_height": HEIGHT - BOTTOM - TOP,
        "tick_label_x": LEFT - 6,
        "number_y": HEIGHT - BOTTOM + 16,
        "top": TOP,
        "label": gettext(story["label"]),
        "ticks": [{"y": _n(y(v)), "value": v} for v in range(0, top + 1, step)],
        "lines": [
            {
                "seat": s,
                "name": names.get(s, ""),
                "path": _steps(values, x, y),
                "dash": DASHES[s % 4],
            }
            for s, values in enumerate(series)
        ],
        "chapters": chapters,
        "at_x": _n(x(at)) if at is not None else None,
    }
