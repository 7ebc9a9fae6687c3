from django import template

from siam import board

register = template.Library()


@register.simple_tag(takes_context=True)
def siam_board(context):
    """The board prepared from the page's view: ``{% siam_board as b %}``."""
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
