from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from games.models import Game

from .forms import SettingsForm
from .models import User


@login_required
def settings_view(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings were saved."))
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form})


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    games = Game.objects.filter(seats__user=player).exclude(status=Game.Status.ABORTED)
    games = games.exclude(private=True).order_by("-created_at").distinct()[:50]
    return render(request, "accounts/profile.html", {"player": player, "games": games})
