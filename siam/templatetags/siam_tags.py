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
    if game is not None and game.status != "active" and not getattr(page, "history", False):
        if view.get("struggle") is not None:
            # Ended by the site (a resignation, a time-out, a cancellation) in mid-game:
            # no struggle is being fought and no card is being played any more.
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
