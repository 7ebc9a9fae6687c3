from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import relations, watch


@login_required
def friends(request):
    context = {
        "following": relations.following(request.user),
        "blocked": relations.blocked(request.user),
    }
    return render(request, "social/friends.html", context)


def games_to_watch(request):
    """Running public games by interest, and those of the players the viewer follows."""
    context = {
        "watched": watch.games_to_watch(request.user),
        "followed": watch.followed_games(request.user),
    }
    return render(request, "social/watch.html", context)


def _change(operation, said):
    """A POST that follows, unfollows, blocks or unblocks the player named ``username``,
    then goes back where it came from (``next``, on this site) or to the friends page."""

    @require_POST
    @login_required
    def view(request):
        try:
            other = operation(request.user, request.POST.get("username"))
        except relations.Refused as refused:
            messages.error(request, refused.message)
        else:
            messages.success(request, said() % {"name": other.name})
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            back = ""
        return redirect(back or "friends")

    return view


follow = _change(relations.follow, lambda: _("You follow %(name)s."))
unfollow = _change(relations.unfollow, lambda: _("You no longer follow %(name)s."))
block = _change(relations.block, lambda: _("You blocked %(name)s."))
unblock = _change(relations.unblock, lambda: _("You unblocked %(name)s."))
