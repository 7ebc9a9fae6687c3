import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from . import play, registry
from .forms import NewGameForm
from .models import Game, Seat
from .pages import board_page


def home(request):
    open_games = (
        Game.objects.filter(status=Game.Status.OPEN, private=False)
        .prefetch_related("seats__user")
        .order_by("-created_at")[:50]
    )
    return render(request, "lobby/home.html", {"open_games": open_games, "kinds": registry.kinds()})


@login_required
def new_game(request, kind):
    try:
        game_kind = registry.get(kind)
    except KeyError:
        raise Http404 from None
    form = NewGameForm(game_kind.engine, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game = play.create_game(
            request.user,
            game_kind,
            title=data["title"],
            players=data["players"],
            options=form.options(),
            time_limit_days=data["time_limit_days"],
            private=data["private"],
            timeout_policy=data["timeout_policy"],
            vacation_allowed=data["vacation_allowed"],
        )
        return redirect(game)
    return render(request, "lobby/new_game.html", {"form": form, "kind": game_kind})


@login_required
def my_games(request):
    seats = (
        Seat.objects.filter(user=request.user)
        .exclude(game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
        .select_related("game")
        .prefetch_related("game__seats__user")
        .order_by("-to_move", "to_move_since", "-game__created_at")
    )
    return render(request, "lobby/my_games.html", {"seats": seats})


def archive(request):
    games = Game.objects.filter(status=Game.Status.FINISHED, private=False)
    if request.GET.get("mine") and request.user.is_authenticated:
        games = Game.objects.filter(status=Game.Status.FINISHED, seats__user=request.user)
    page = Paginator(games.order_by("-finished_at"), 30).get_page(request.GET.get("page"))
    return render(request, "lobby/archive.html", {"page": page})


@login_required
def next_game(request):
    game = play.next_game_for(request.user)
    if game is None:
        messages.info(request, _("No game is waiting for you."))
        return redirect("my_games")
    return redirect(game)


def _visible_game(request, game_id) -> Game:
    game = get_object_or_404(Game, pk=game_id)
    if not game.visible_to(request.user):
        raise Http404
    return game


def _at(request) -> int | None:
    try:
        return int(request.GET["at"])
    except (KeyError, ValueError, OverflowError):
        return None


def game_page(request, game_id):
    game = _visible_game(request, game_id)
    if not game.was_played:
        return render(request, "lobby/open_game.html", _open_context(request, game))
    return render(request, "games/game.html", _board_context(request, game, _at(request)))


def _open_context(request, game, token=""):
    seat = game.seat_of(request.user)
    invite_url = ""
    if seat is not None and game.private:
        invite_url = request.build_absolute_uri(f"/invite/{game.invite_token()}/")
    return {
        "game": game,
        "seat": seat,
        "token": token,
        "invite_url": invite_url,
        "seats": game.seats.select_related("user"),
        "options": _option_labels(game),
    }


def _option_labels(game) -> list[tuple[str, str]]:
    """The game's options as (label, chosen value) in the reader's language."""
    shown = []
    for spec in game.engine.options_schema():
        value = game.options.get(spec["name"], spec.get("default"))
        if spec["type"] == "bool":
            text = _("yes") if value else _("no")
        else:
            text = dict(spec.get("choices", [])).get(value, str(value))
        shown.append((_(spec.get("label", spec["name"])), _(text)))
    return shown


def _board_context(request, game, at=None, error=""):
    page = board_page(game, request.user, at=at, error=error)
    kind = game.kind_info
    return {
        "game": game,
        "page": page,
        "view": page.view,
        "player_names": page.player_names,
        "board_template": select_template([kind.board_template, "games/board_generic.html"]),
        "chat": game.chat.filter(hidden=False).select_related("user"),
        "chat_max": settings.CHAT_MAX_LENGTH,
    }


def board(request, game_id):
    game = _visible_game(request, game_id)
    if not game.was_played:
        raise Http404
    return render(
        request, "games/game.html#board-area", _board_context(request, game, _at(request))
    )


@require_GET
def poll(request, game_id):
    """Cheap: compares two integers and answers 204 unless something changed.

    The board page gets the new board; the waiting page of an open game
    (``?open=1``) is reloaded, since joining may have started the game.
    """
    row = (
        Game.objects.filter(pk=game_id).values("version", "chat_count", "private", "status").first()
    )
    if row is None or row["private"] and not _visible_game(request, game_id):
        raise Http404
    try:
        seen = (int(request.GET.get("v", "")), int(request.GET.get("c", "")))
    except ValueError:
        seen = None
    if seen == (row["version"], row["chat_count"]):
        return HttpResponse(status=204)
    if request.GET.get("open") or row["status"] == Game.Status.ABORTED:
        return HttpResponseClientRefresh()
    return board(request, game_id)


@require_GET
def version(request, game_id):
    game = _visible_game(request, game_id)
    return JsonResponse(
        {"version": game.version, "move_count": game.move_count, "status": game.status}
    )


def _request_data(request) -> dict:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"null")
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise play.PlayError(_("The request was not valid JSON.")) from None
        if not isinstance(data, dict):
            raise play.PlayError(_("The request was not valid JSON."))
        return data
    data = request.POST.dict()
    if "action" in data:
        try:
            data["action"] = json.loads(data["action"])
        except (ValueError, RecursionError):
            raise play.PlayError(_("The action was not valid JSON.")) from None
    return data


def _seen_version(data) -> int | str | None:
    """The game version an API client saw, or the token of the page a click came from."""
    value = data.get("version")
    if value in (None, ""):
        return None
    if isinstance(value, str) and value.startswith("v"):
        return value
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise play.PlayError(_("The version must be a number.")) from None


def _answer(request, game_id, error: play.PlayError | None = None):
    """Answer a game request: JSON for API clients, the board for HTMX and pages."""
    status = error.status if error else 200
    if request.content_type == "application/json":
        if error:
            return JsonResponse({"ok": False, "error": error.message}, status=status)
        game = Game.objects.get(pk=game_id)
        return JsonResponse({"ok": True, "version": game.version, "move_count": game.move_count})
    game = get_object_or_404(Game, pk=game_id)
    message = error.message if error else ""
    if request.htmx:
        context = _board_context(request, game, error=message)
        return render(request, "games/game.html#board-area", context, status=status)
    if error:
        if not game.was_played:
            messages.error(request, message)
            return render(
                request, "lobby/open_game.html", _open_context(request, game), status=status
            )
        return render(
            request, "games/game.html", _board_context(request, game, error=message), status=status
        )
    return redirect(game)


def _guarded(operation):
    """Run a play operation for a signed-in user, turning refusals into answers."""

    @require_POST
    def view(request, game_id):
        if not request.user.is_authenticated:
            if request.content_type == "application/json":
                return JsonResponse({"ok": False, "error": _("Please sign in.")}, status=403)
            login = redirect_to_login(f"/g/{game_id}/")
            if request.htmx:
                # A whole sign-in page must not land inside the board.
                return HttpResponseClientRedirect(login["Location"])
            return login
        get_object_or_404(Game, pk=game_id)
        try:
            operation(request, game_id, _request_data(request))
        except play.PlayError as error:
            return _answer(request, game_id, error)
        return _answer(request, game_id)

    view.__name__ = operation.__name__
    return view


@_guarded
def act(request, game_id, data):
    if "action" not in data:
        raise play.PlayError(_("No action was sent."))
    play.act(game_id, request.user, data["action"], _seen_version(data))


@_guarded
def undo(request, game_id, data):
    play.undo(game_id, request.user, _seen_version(data))


@_guarded
def resign(request, game_id, data):
    play.resign(game_id, request.user)


@_guarded
def chat(request, game_id, data):
    text = data.get("text", "")
    if not isinstance(text, str):
        raise play.PlayError(_("A chat message must be text."))
    play.post_chat(game_id, request.user, text)


@_guarded
def join(request, game_id, data):
    game = Game.objects.get(pk=game_id)
    if game.private and Game.from_invite_token(data.get("token")) != game:
        raise play.PlayError(_("This private game needs an invite link."), 403)
    play.join(game_id, request.user)


@_guarded
def leave(request, game_id, data):
    play.leave(game_id, request.user)


def invite(request, token):
    game = Game.from_invite_token(token)
    if game is None:
        raise Http404
    if game.status != Game.Status.OPEN:
        return redirect(game)
    return render(request, "lobby/open_game.html", _open_context(request, game, token=token))
