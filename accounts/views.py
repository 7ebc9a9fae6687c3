from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from api.views import settings_context as api_tokens
from games import ical, lists
from games.archive_search import ArchiveSearch
from games.clock import vacation
from notify import settings_page

from .forms import SettingsForm
from .models import User


@login_required
def settings_view(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user.language:
            translation.activate(user.language)
        messages.success(request, _("Your settings were saved."))
        response = redirect("settings")
        _remember_language(response, user.language)
        return response
    context = {
        "form": form,
        "vacation_days_left": vacation.days_left(request.user),
        "vacation_days_per_year": vacation.allowance(),
        "calendar_url": ical.feed_url(request.user),
        **settings_page.context(request.user),
        **api_tokens(request.user),
    }
    return render(request, "accounts/settings.html", context)


PROFILE_FINISHED = 10


def profile(request, username):
    """A player's public page: ratings, their open and running public games, and the
    latest finished ones (the archive has the rest)."""
    player = get_object_or_404(User, username=username, is_active=True)
    finished = list(lists.finished_games(player)[: PROFILE_FINISHED + 1])
    context = {
        "player": player,
        "running": lists.running_games(player),
        "finished": finished[:PROFILE_FINISHED],
        "more_finished": len(finished) > PROFILE_FINISHED,
        "search": ArchiveSearch(None),  # the archive's, for this player's games
    }
    return render(request, "accounts/profile.html", context)


@require_POST
def set_language(request):
    """The header's language switch; for a signed-in user it changes the profile too."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


def _remember_language(response, language):
    """The chosen language in the cookie; "as my browser says" (empty) removes it,
    or an earlier pick from the header's switch would go on overruling the browser."""
    if not language:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    else:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
