"""What the board template (``siam/jinja2/siam/board.html``) calls, registered with
``games.jinja.add_globals`` in ``SiamConfig.ready``."""

from __future__ import annotations

from typing import Any

import jinja2

from siam import board


@jinja2.pass_context
def siam_board(context: Any) -> dict[str, Any]:
    """The board prepared from the page's view: ``{% set b = siam_board() %}``."""
    page = context.get("page")
    since = getattr(page, "since", None)
    view = context["view"]
    if getattr(page, "cut_short", False):
        # No struggle is being fought and no card is being played any more.
        view = {
            **view,
            "pending": None,
            "struggle": None,
            "current_province": None,
            "provinces": [{**p, "current": False} for p in view["provinces"]],
            "track": [{**t, "current": False} for t in view["track"]],
        }
    return board.build(
        view,
        context.get("player_names") or {},
        page.token if page else "",
        before=since.before if since else None,
        before_last=getattr(page, "before_last", None),
    )


GLOBALS = {"siam_board": siam_board}
