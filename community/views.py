from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games import play, registry
from games.views import GoTo, guarded

from . import cancel, rematch
from .models import PlayerStats

LEADERBOARD_SIZE = 100


def _yes_no(data, field: str) -> bool:
    value = data.get(field)
    if value not in ("yes", "no"):
        raise play.PlayError(_("Answer yes or no."))
    return value == "yes"


@guarded
def rematch_answer(request, game_id, data):
    offer = rematch.answer(game_id, request.user, _yes_no(data, "answer"))
    # The answer that starts the rematch leads its player to the new board.
    return GoTo(offer.new_game) if offer.status == offer.Status.STARTED else None


@guarded
def cancel_vote(request, game_id, data):
    cancel.vote(game_id, request.user, _yes_no(data, "vote"))


def leaderboard(request, kind):
    try:
        game_kind = registry.get(kind)
    except KeyError:
        raise Http404 from None
    rows = (
        PlayerStats.objects.filter(kind=kind, rated_games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-rating", "user__username")[:LEADERBOARD_SIZE]
    )
    return render(
        request,
        "community/leaderboard.html",
        {"kind": game_kind, "rows": rows, "kinds": registry.kinds()},
    )
