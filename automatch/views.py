from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.play import PlayError

from . import tickets
from .forms import TicketForm


@login_required
def page(request):
    """The player's open tickets, how many are looking per title, and a form per title."""
    mine = tickets.open_tickets(request.user)
    context = {
        "tickets": mine,
        "ticket_ids": [ticket.pk for ticket in mine],
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
            tickets.post(request.user, form.wish())
        except PlayError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("You are looking for a game. It starts when others fit."))
            return redirect("automatch")
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
    parts = request.GET.get("t", "").split(",")[:20]
    ids = [int(part) for part in parts if part.isdigit() and len(part) < 12]
    game = tickets.matched_game(request.user, ids)
    if game is None:
        return HttpResponse(status=204)
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": game.get_absolute_url()})
    return redirect(game)
