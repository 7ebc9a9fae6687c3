"""A rating history as SVG coordinates, drawn by the template (no script needed)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 240
HEIGHT = 60
PAD = 4


@dataclass
class Chart:
    points: str  # for <polyline points="...">
    low: int
    high: int
    last: int
    games: int
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(values: list[int]) -> Chart | None:
    """The line through ``values`` (oldest first), scaled to the box; None if too short."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    coords = [
        (PAD + i * step, HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span)
        for i, value in enumerate(values)
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    return Chart(points=points, low=low, high=high, last=values[-1], games=len(values) - 1)
