from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games import play

from . import walkthrough


@require_POST
@login_required
def start(request):
    try:
        game = walkthrough.start(request.user, request.POST.get("kind"), request.POST.get("map"))
    except play.PlayError as error:
        messages.error(request, error.message)
        return redirect("home")
    return redirect(game)
