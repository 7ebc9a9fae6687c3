"""Tal der Könige's valley in small, for the lists of games to watch: the areas, and each
building site as a block in its owner's colour (blank while nobody owns it), darker as
its pyramid grows. Built from a spectator's view (``games.thumbnails``): no bid, no plan."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join

from . import layout as L

# The seats' colours of the board's stylesheet (static/tal/board.css).
SEATS = ("#0b5cad", "#b42318", "#1a7f37", "#6f42c1")
BLANK = "#efe9da"


def draw(view: dict[str, Any]) -> str:
    areas = format_html_join(
        "",
        '<polygon points="{}" fill="#d8c79a" stroke="#8a7448" stroke-width="8"/>',
        ((" ".join(f"{x},{y}" for x, y in spec["polygon"]),) for spec in L.AREAS.values()),
    )
    sites = []
    for site in view["sites"]:
        x, y, w, h = L.site_box(site["site"], site["size"])
        owner = site["owner"]
        fill = SEATS[owner] if owner is not None else BLANK
        sites.append((x, y, w, h, fill, min(1, 0.55 + site["stones"] / 20)))
    blocks = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="{}"'
        ' stroke="#3b2f1a" stroke-width="8"/>',
        sites,
    )
    return format_html(
        '<svg class="thumbnail" viewBox="0 0 {} {}" aria-hidden="true">{}{}</svg>',
        L.WIDTH,
        L.HEIGHT,
        areas,
        blocks,
    )
