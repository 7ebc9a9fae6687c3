from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.play import PlayError
from games.views import game_route

from . import hints


@require_POST
@game_route
def hint(request, game):
    """The hard computer player's suggestion for the viewer's move: JSON for the page's
    script, which marks it on the board; without the script, a message on the page."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    if not request.user.is_authenticated:
        if wants_json:
            return JsonResponse({"ok": False, "error": _("Please sign in.")}, status=403)
        return redirect(game)
    try:
        suggestion = hints.suggest(game, request.user)
    except PlayError as error:
        if wants_json:
            return JsonResponse({"ok": False, "error": error.message}, status=error.status)
        messages.error(request, error.message)
        return redirect(game)
    if wants_json:
        return JsonResponse({"ok": True, **suggestion})
    if suggestion["reason"]:
        said = _("Suggested move: %(move)s. Why: %(reason)s") % {
            "move": suggestion["label"],
            "reason": suggestion["reason"],
        }
    else:
        said = _("Suggested move: %(move)s") % {"move": suggestion["label"]}
    messages.info(request, said)
    return redirect(game)
