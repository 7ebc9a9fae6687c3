from .models import Game, Seat


def turn_count(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    if hasattr(request, "my_turn_count"):  # counted already for the page cache's key
        return {"my_turn_count": request.my_turn_count}
    count = Seat.objects.filter(user=user, to_move=True, game__status=Game.Status.ACTIVE).count()
    return {"my_turn_count": count}
