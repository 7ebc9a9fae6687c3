import functools

from .models import Game, Seat


def turn_count(request):
    """How many games wait for the user's move (the badge in the menu).

    Counted only when a template shows it (the template calls it): the board
    partials that answer moves and polls have no menu, and no need of the query.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    @functools.cache
    def count() -> int:
        return Seat.objects.filter(user=user, to_move=True, game__status=Game.Status.ACTIVE).count()

    return {"my_turn_count": count}
