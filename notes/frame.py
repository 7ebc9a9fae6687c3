"""What the notes app adds to the game page (``games.extend``): at the foot, outside the
board area (a board swapped in by a move, a poll or the planning board leaves the box
being typed in alone), the place the viewer's own note is fetched into (``views``). The
note itself is never part of the game page: the page stays the same size whatever the
note holds, and its cached copy (``games.pagecache``) needs no key part for it."""

from __future__ import annotations

from games import extend


def _slot(context) -> dict | None:
    # page.viewer is the viewer's seat: a spectator, a visitor or an outsider has none.
    page = context.get("page")
    return {} if page is not None and page.viewer is not None else None


def register() -> None:
    extend.add_part("game-foot", "notes/_slot.html", _slot, order=10)
