"""What the review app adds to a finished game's page (``games.extend``): each player's
points as the game went, as a chart and as a table, each chapter a link to its position.
Finished games' pages are not kept whole (``games.pagecache``), and their story never
changes, so the part needs no key part of its own."""

from __future__ import annotations

from games import extend

from . import chart
from .story import story


def _review(context) -> dict | None:
    page = context.get("page")
    if page is None:
        return None
    found = story(page.game)
    if found is None or not found["points"]:
        return None
    at = page.at if page.history else None
    return {"review": chart.draw(found, page.game, page.player_names, page.numbers, at)}


def register() -> None:
    extend.add_part("game-panel", "review/_review.html", _review, order=20)
