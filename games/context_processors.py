from .models import Game, Seat


def turn_count(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    count = Seat.objects.filter(user=user, to_move=True, game__status=Game.Status.ACTIVE).count()
    return {"my_turn_count": count}
