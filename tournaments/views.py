"""Tournament and ladder pages; the work is in ``running`` and ``ladders``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import play, registry

from . import ladders, lookup, pages, running
from .forms import LadderForm, TournamentForm
from .models import Entrant, Ladder, Tournament


def tournament_list(request):
    finished = Tournament.objects.filter(
        status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
    ).order_by("-finished_at", "-pk")
    context = {
        "open": lookup.open_for_entries(),
        "running": Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("-pk"),
        "finished": Paginator(finished, 30).get_page(request.GET.get("page")),
        "kinds": registry.kinds(),
        "may_create": running.may_create(request.user),
    }
    return render(request, "tournaments/list.html", context)


@login_required
def new_tournament(request, kind):
    try:
        game_kind = registry.get(kind)
    except KeyError:
        raise Http404 from None
    if not running.may_create(request.user):
        messages.error(
            request,
            _(
                "Only moderators and players with a verified e-mail address can create "
                "tournaments, a few at a time."
            ),
        )
        return redirect("tournaments")
    form = TournamentForm(game_kind.engine, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = running.create(request.user, **form.fields_for_model())
        except play.PlayError as error:
            messages.error(request, error.message)
            return redirect("tournaments")
        return redirect(tournament)
    return render(request, "tournaments/new.html", {"form": form, "kind": game_kind})


def tournament(request, tournament_id):
    found = get_object_or_404(Tournament, pk=tournament_id)
    after = request.GET.get("after")
    after = int(after) if after and after.isdigit() and len(after) < 4 else None
    return render(request, "tournaments/detail.html", pages.context(found, request.user, after))


def _act(request, tournament_id, operation, done: str):
    get_object_or_404(Tournament, pk=tournament_id)
    try:
        operation()
    except play.PlayError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("tournament", tournament_id)


@require_POST
@login_required
def enter(request, tournament_id):
    return _act(
        request,
        tournament_id,
        lambda: running.enter(tournament_id, request.user),
        _("You have entered the tournament. Your games start with its first round."),
    )


@require_POST
@login_required
def withdraw(request, tournament_id):
    return _act(
        request,
        tournament_id,
        lambda: running.withdraw(tournament_id, request.user),
        _("You have left the tournament."),
    )


@require_POST
@login_required
def start(request, tournament_id):
    return _act(
        request,
        tournament_id,
        lambda: running.close_signup(tournament_id, request.user),
        _("The sign-up is closed: the first round starts in a moment."),
    )


@login_required
def remove(request, tournament_id, entrant_id):
    """A moderator removes an entrant, with a reason for the audit trail."""
    found = get_object_or_404(Tournament, pk=tournament_id)
    entrant = get_object_or_404(
        Entrant.objects.select_related("user"), pk=entrant_id, tournament=found
    )
    if not running.is_moderator(request.user):
        raise Http404
    if request.method == "POST":
        return _act(
            request,
            tournament_id,
            lambda: running.remove(
                tournament_id, entrant_id, request.user, request.POST.get("reason", "")
            ),
            _("%(name)s was removed from the tournament.") % {"name": entrant.user.name},
        )
    return render(request, "tournaments/remove.html", {"tournament": found, "entrant": entrant})


def ladder_list(request):
    return render(request, "tournaments/ladders.html", {"ladders": lookup.active_ladders()})


def ladder(request, ladder_id):
    found = get_object_or_404(Ladder, pk=ladder_id, active=True)
    mine = None
    if request.user.is_authenticated:
        mine = found.players.filter(user=request.user, active=True).first()
    initial = {"games_at_once": mine.games_at_once} if mine else None
    context = {
        "ladder": found,
        "rows": ladders.ranking(found),
        "mine": mine,
        "form": LadderForm(initial=initial),
    }
    return render(request, "tournaments/ladder.html", context)


@require_POST
@login_required
def ladder_join(request, ladder_id):
    form = LadderForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how many ladder games you want at once."))
        return redirect("ladder", ladder_id)
    try:
        ladders.join(ladder_id, request.user, form.cleaned_data["games_at_once"])
    except play.PlayError as error:
        if error.status == 404:
            raise Http404 from None
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("You are on the ladder. New games appear in “My games” as they are paired.")
        )
    return redirect("ladder", ladder_id)


@require_POST
@login_required
def ladder_leave(request, ladder_id):
    get_object_or_404(Ladder, pk=ladder_id)
    try:
        ladders.leave(ladder_id, request.user)
    except play.PlayError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You left the ladder; your running games go on."))
    return redirect("ladder", ladder_id)
