"""What the board template (``tal/jinja2/tal/board.html``) calls, registered with
``games.jinja.add_globals`` in ``TalConfig.ready``."""

from __future__ import annotations

from typing import Any

import jinja2

from tal import board, panels, valley


@jinja2.pass_context
def tal_board(context: Any) -> dict[str, Any]:
    """The board prepared from the page's view: ``{% set b = tal_board() %}``.

    ``?fig=w2`` chooses the figure whose moves are shown, ``?slot=3-4`` the position
    to build on; both only change what is drawn, never the game.
    """
    page = context.get("page")
    request = context.get("request")
    query = request.GET if request else {}
    view = context["view"]
    ended = getattr(page, "cut_short", False)
    if ended:
        # Nobody is waited for and no plan is being written; the rules' final scoring
        # never happened, so there is no summary.
        view = {**view, "phase": "finished"}
        if context["view"]["phase"] == "plan":
            # plans never revealed: no "planning" marks and no half-written plans
            view["seats"] = [{**s, "plan_submitted": None, "plan": None} for s in view["seats"]]
    return board.build(
        view,
        context.get("player_names") or {},
        page.token if page else "",
        chosen_fig=query.get("fig"),
        chosen_slot=query.get("slot"),
        ended=ended,
    )


@jinja2.pass_context
def tal_text_mode(context: Any) -> bool:
    """The board as text and a list of actions (``?text=1``)."""
    request = context.get("request")
    return bool(request and request.GET.get("text"))


@jinja2.pass_context
def tal_valley(context: Any, b: dict[str, Any], board_url: str, act_url: str) -> str:
    """The valley's ``<svg>`` (``tal.valley``). Its actions post to the game's ``act``
    beside the page, or on the planning board to ``act_url``."""
    return valley.render(b, board_url, act_url if context.get("planning") else "act")


def tal_bid_panel(group: dict[str, Any], act_url: str, token: str, csrf_input: str) -> str:
    """A market group's bid forms (``tal.panels``)."""
    return panels.bid_panel(group, act_url, token, csrf_input)


GLOBALS = {
    "tal_board": tal_board,
    "tal_text_mode": tal_text_mode,
    "tal_valley": tal_valley,
    "tal_bid_panel": tal_bid_panel,
}
