from django import template

from siam import board

register = template.Library()


@register.simple_tag(takes_context=True)
def siam_board(context):
    """The board prepared from the page's view: ``{% siam_board as b %}``."""
    page = context.get("page")
    since = getattr(page, "since", None)
    return board.build(
        context["view"],
        context.get("player_names") or {},
        page.token if page else "",
        before=since.before if since else None,
        before_last=getattr(page, "before_last", None),
    )
