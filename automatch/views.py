from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.play import PlayError

from . import tickets
from .forms import TicketForm


@login_required
def page(request):
    """The player's open tickets, how many are looking per title, and a form per title.

    ``?t=<id>``: the ticket just posted, watched too: a worker may match it before
    this page is drawn, and the page must still take its player to the game."""
    mine = tickets.open_tickets(request.user)
    watched = [ticket.pk for ticket in mine] + _ticket_ids(request.GET.get("t", ""))
    context = {
        "tickets": mine,
        "ticket_ids": sorted(set(watched)),
        "looking": tickets.looking(),
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
            return redirect(f"{reverse('automatch')}?t={ticket.pk}")
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
    """Polled by the page that shows the player's tickets (and asked at once when
    their live stream says their badge changed): where a matched ticket's game is."""
    game = tickets.matched_game(request.user, _ticket_ids(request.GET.get("t", "")))
    if game is None:
        return HttpResponse(status=204)
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": game.get_absolute_url()})
    return redirect(game)


def _ticket_ids(text: str) -> list[int]:
    """Ticket ids from a query (``1,2,3``), at most 20; whose they are is checked
    where they are read."""
    return [int(part) for part in text.split(",")[:20] if part.isdigit() and len(part) < 12]
