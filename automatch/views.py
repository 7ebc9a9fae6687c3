from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.play import PlayError

from . import tickets
from .forms import TicketForm

# How far back the page's watcher may look for a matched ticket (``page``).
WATCH_BACK = timedelta(minutes=10)


@login_required
def page(request):
    """The player's open tickets, how many are looking per title, and a form per title.

    ``?since=<stamp>``: when the ticket just posted was posted. A worker may match it
    before this page is drawn: the page's watcher asks from then on, so it still
    takes its player to the game (a stamp at most ``WATCH_BACK`` old)."""
    mine = tickets.open_tickets(request.user)
    now = timezone.now()
    since = tickets.parse_stamp(request.GET.get("since", ""))
    if since is not None and not now - WATCH_BACK <= since <= now:
        since = None
    context = {
        "tickets": mine,
        # The tickets shown, and any matched since the one just posted.
        "watch_ids": ",".join(str(ticket.pk) for ticket in mine),
        "watch_since": since and tickets.stamp(since),
        "looking": tickets.looking().counts,
        "kinds": registry.kinds(),
    }
    return render(request, "automatch/page.html", context)


@login_required
def new_ticket(request, kind):
    try:
        game_kind = registry.get(kind)
    except KeyError:
        raise Http404 from None
    form = TicketForm(game_kind.engine, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            ticket = tickets.post(request.user, form.wish())
        except PlayError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("You are looking for a game. It starts when others fit."))
            since = tickets.stamp(ticket.created_at)
            return redirect(f"{reverse('automatch')}?since={since}")
    status = 400 if form.errors else 200
    return render(request, "automatch/new.html", {"form": form, "kind": game_kind}, status=status)


@require_POST
@login_required
def withdraw(request, ticket_id):
    try:
        tickets.withdraw(ticket_id, request.user)
    except PlayError as error:
        if error.status == 404:
            raise Http404 from None
        messages.error(request, error.message)
    else:
        messages.success(request, _("You are no longer looking for this game."))
    return redirect("automatch")


@require_GET
@login_required
def status(request):
    """Polled by a page that shows the player is looking (and asked at once when their
    live stream says their badge changed): the game a ticket of theirs was matched into,
    of those the page shows (``?t=1,2``) or since ``?since=<stamp>``."""
    since = tickets.parse_stamp(request.GET.get("since", ""))
    game = tickets.matched_game(request.user, _ticket_ids(request.GET.get("t", "")), since)
    if game is None:
        return HttpResponse(status=204)
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": game.get_absolute_url()})
    return redirect(game)


def _ticket_ids(text: str) -> list[int]:
    """Ticket ids from a query (``1,2,3``), at most 20; whose they are is checked
    where they are read."""
    return [int(part) for part in text.split(",")[:20] if part.isdigit() and len(part) < 12]
