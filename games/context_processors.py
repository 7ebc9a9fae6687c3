import functools

from django.conf import settings

from . import lists


def contact(request):
    """The address players write to, for the foot of every page (empty: none shown)."""
    return {"contact_email": settings.CONTACT_EMAIL}


def turn_count(request):
    """How many games wait for the user: their move, an invitation or a rematch offer
    to answer (the badge in the menu).

    Counted only when a template shows it (the template calls it): the board
    partials that answer moves and polls have no menu, and no need of the query.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    if hasattr(request, "my_turn_count"):  # counted already for the page cache's key
        return {"my_turn_count": request.my_turn_count}

    @functools.cache
    def count() -> int:
        return lists.waiting_count(user)

    return {"my_turn_count": count}
