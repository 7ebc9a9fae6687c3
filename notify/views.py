"""Unsubscribe and mute: by signed link without login, and the mute button on the game page."""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.models import Game
from games.views import game_route

from .emails import UNSUBSCRIBE, read_mute_token, read_unsubscribe_token
from .models import Mute, Notification


# Mail clients post the one-click unsubscribe (RFC 8058) without a CSRF token;
# the signed token is the authorisation.
@csrf_exempt
def unsubscribe(request, token):
    found = read_unsubscribe_token(token)
    user = found and get_user_model().objects.filter(pk=found[0]).first()
    if not user:
        return render(request, "notify/bad_link.html", status=400)
    field, value = UNSUBSCRIBE[found[1]]
    # One setting may cover several kinds (a game's start, its end, a stand-in): name them all.
    kinds = [Notification.Kind(k).label for k, (f, _) in UNSUBSCRIBE.items() if f == field]
    context = {"kind": ", ".join(str(k) for k in kinds), "count": len(kinds), "done": False}
    if request.method == "POST":
        setattr(user, field, value)
        user.save(update_fields=[field])
        context["done"] = True
    return render(request, "notify/unsubscribe.html", context)


@csrf_exempt
def mute_link(request, token):
    found = read_mute_token(token)
    user = found and get_user_model().objects.filter(pk=found[0]).first()
    game = found and Game.objects.filter(pk=found[1]).first()
    if not user or not game:
        return render(request, "notify/bad_link.html", status=400)
    done = False
    if request.method == "POST":
        Mute.objects.get_or_create(user=user, game=game)
        done = True
    return render(request, "notify/mute.html", {"game": game, "done": done})


@require_POST
@game_route
@login_required
def toggle_mute(request, game):
    if game.seat_of(request.user) is None:
        raise Http404
    # Says what it wants, so a double click (or a retry) does not undo itself.
    if request.POST.get("mute") == "0":
        Mute.objects.filter(user=request.user, game=game).delete()
    else:
        Mute.objects.get_or_create(user=request.user, game=game)
    return redirect(game)
