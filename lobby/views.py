from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import play, registry
from games.views import guarded

from . import invites, listing


def home(request):
    chosen = listing.LobbyFilter(request.GET)
    filter_query = _query_without(request.GET, "watch")
    context = {
        "filter": chosen,
        "filter_query": filter_query,
        "open_games": listing.open_games(chosen),
        "watch_section": listing.watch_section(
            request, chosen, filter_query, request.GET.get("watch")
        ),
        "substitute_games": listing.substitute_games(),
        "kinds": registry.kinds(),
    }
    return render(request, "lobby/home.html", context)


def _query_without(query, name: str) -> str:
    """The query string minus one parameter, ready for ``?...&name=``."""
    kept = query.copy()
    kept.pop(name, None)
    encoded = kept.urlencode()
    return f"{encoded}&" if encoded else ""


@guarded
def invite_player(request, game_id, data):
    invitation = invites.invite(game_id, request.user, data.get("username", ""))
    messages.success(request, _invited_message(invitation))


def _invited_message(invitation) -> str:
    return _("%(name)s is invited. The invitation waits on their “My games” page.") % {
        "name": invitation.invitee.name
    }


@require_POST
@login_required
def answer_invitation(request, invitation_id, accept):
    try:
        invitation = invites.answer(invitation_id, request.user, accept)
    except play.PlayError as error:
        messages.error(request, error.message)
        return redirect("my_games")
    if accept:
        return redirect(invitation.game)
    return redirect("my_games")
