"""King of Siam's board in small, for the lists of games to watch: each province in
the colour of the power that holds it, or of the faction that leads in it (lighter), else
blank. Built from a spectator's view (``games.thumbnails``), which holds no hand."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join

from .layout import LAYOUTS, LOOKS, corners

BLANK = "#efe9da"
INVADER = "#6b6b6b"


def draw(view: dict[str, Any]) -> str:
    layout = LAYOUTS[view["map"]]
    colours = {f["id"]: LOOKS[view["map"]]["colours"][i][0] for i, f in enumerate(view["factions"])}
    invader = view["invader"]["id"]
    shapes = []
    for province in view["provinces"]:
        points = " ".join(f"{x},{y}" for x, y in corners(layout, province["id"]))
        held = province["controller"]
        followers = province["followers"]
        leader = max(followers, key=followers.get, default=None) if followers else None
        if held is not None:
            fill, opacity = (INVADER if held == invader else colours[held]), "1"
        elif leader is not None and followers[leader] > 0:
            fill, opacity = colours[leader], ".45"
        else:
            fill, opacity = BLANK, "1"
        shapes.append((points, fill, opacity))
    polygons = format_html_join(
        "",
        '<polygon points="{}" fill="{}" fill-opacity="{}" stroke="#5a4a2a" stroke-width="3"/>',
        shapes,
    )
    return format_html(
        '<svg class="thumbnail" viewBox="0 0 {} {}" aria-hidden="true">{}</svg>',
        layout["width"],
        layout["height"],
        polygons,
    )
