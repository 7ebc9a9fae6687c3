from django import template

from tal import board

register = template.Library()


@register.simple_tag(takes_context=True)
def tal_board(context):
    """The board prepared from the page's view: ``{% tal_board as b %}``."""
    page = context.get("page")
    return board.build(
        context["view"], context.get("player_names") or {}, page.token if page else ""
    )
