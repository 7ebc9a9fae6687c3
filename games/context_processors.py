from .models import TRUE, Game, Seat


def turn_count(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    if hasattr(request, "my_turn_count"):  # counted already for the page cache's key
        return {"my_turn_count": request.my_turn_count}
    # On the seat_user_to_move index: the seats to move, not every seat the player ever had.
    seats = Seat.objects.filter(user=user, to_move=TRUE, game__status=Game.Status.ACTIVE)
    count = seats.count()
    return {"my_turn_count": count}
