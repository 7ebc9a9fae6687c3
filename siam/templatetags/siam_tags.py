from django import template

from siam import board

register = template.Library()


@register.simple_tag(takes_context=True)
def siam_board(context):
    """The board prepared from the page's view: ``{% siam_board as b %}``."""
    page = context.get("page")
    since = getattr(page, "since", None)
    view = context["view"]
    game = context.get("game")
    if view.get("pending") and game is not None and game.status != "active":
        if not getattr(page, "history", False):
            # A card cut short by a resignation or time-out is no longer being played.
            view = {**view, "pending": None}
    return board.build(
        view,
        context.get("player_names") or {},
        page.token if page else "",
        before=since.before if since else None,
        before_last=getattr(page, "before_last", None),
    )
