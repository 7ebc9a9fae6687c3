"""What the review app adds to a finished game's page (``games.extend``): the place for
each player's points as the game went, fetched when it comes into view (``views``), so
the page itself stays within its size budget and a reload replays nothing. The slot
is the same for every look at a finished game (only ``?at``, in the page's key, moves
it), so the page kept whole (``games.pagecache``) needs no key part for it."""

from __future__ import annotations

from games import extend
from games.models import Game


def _slot(context) -> dict | None:
    page = context.get("page")
    if page is None or page.game.status != Game.Status.FINISHED or not page.game.kind_info.story:
        return None
    return {"review_at": page.at if page.history else None}


def register() -> None:
    extend.add_part("game-panel", "review/_slot.html", _slot, order=20)
