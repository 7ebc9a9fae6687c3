from django import template
from django.template.defaulttags import CsrfTokenNode

from tal import board, panels, valley

register = template.Library()


@register.simple_tag(takes_context=True)
def tal_board(context):
    """The board prepared from the page's view: ``{% tal_board as b %}``.

    ``?fig=w2`` chooses the figure whose moves are shown, ``?slot=3-4`` the position
    to build on; both only change what is drawn, never the game.
    """
    page = context.get("page")
    request = context.get("request")
    query = request.GET if request is not None else {}
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


@register.simple_tag(takes_context=True)
def tal_text_mode(context) -> bool:
    request = context.get("request")
    return bool(request is not None and request.GET.get("text"))


@register.simple_tag(takes_context=True)
def tal_valley(context, b, board_url, act_url):
    """The valley's ``<svg>`` for the board ``b`` (see ``tal.valley``). Its actions post
    to the game's ``act`` beside the page, or on the planning board to ``act_url``."""
    return valley.render(b, board_url, act_url if context.get("planning") else "act")


@register.simple_tag(takes_context=True)
def tal_bid_panel(context, group, act_url, token):
    """A market group's bid forms (see ``tal.panels.bid_panel``)."""
    return panels.bid_panel(group, act_url, token, CsrfTokenNode().render(context))
