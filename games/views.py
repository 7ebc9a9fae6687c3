import functools
import json
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from . import (
    catchup,
    extend,
    fragments,
    lists,
    numbering,
    pagecache,
    planning,
    play,
    presence,
    receipts,
    record,
    registry,
    replay,
    since,
)
from .archive_search import ArchiveSearch
from .forms import NewGameForm
from .models import Game, Seat
from .pages import board_page, chat_window, view_token
from .rows import RowReader

REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


@login_required
def new_game(request, kind):
    try:
        game_kind = registry.get(kind)
    except KeyError:
        raise Http404 from None
    form = NewGameForm(game_kind.engine, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():  # no game whose challenge could not go out
                game = form.create_game(request.user, game_kind)
                if data.get("challenge"):
                    extend.challengers().challenge(game, request.user, data["challenge"])
        except play.PlayError as error:
            form.add_error("challenge" if data.get("challenge") else None, error.message)
        else:
            return redirect(game)
    return render(request, "games/new_game.html", {"form": form, "kind": game_kind})


@login_required
def my_games(request):
    seats, finished = lists.my_seats(request.user)
    # A move due within a day is marked.
    hurry = timezone.now() + timedelta(days=1)
    context = {"seats": seats, "finished": finished, "hurry": hurry}
    return render(request, "games/my_games.html", context)


def archive(request):
    """The archive and its search (``games.archive_search``): every public finished
    game; ``?mine=1`` the viewer's (private ones too); ``?player=<username>`` a player's
    public ones (their profile links and searches here). Bad parameters: the form says
    what is wrong (400), and no games."""
    search = ArchiveSearch(request.GET, viewer=request.user)
    page = search.page() if search.is_valid() else None
    player = search.cleaned_data.get("player") if page is not None else None
    context = {
        "search": search,
        "page": page,
        "mine": search.own,
        "player": None if search.own else player,
        "outcome_for": player,
    }
    return render(request, "games/archive.html", context, status=200 if page else 400)


@login_required
def next_game(request):
    game = play.next_game_for(request.user)
    if game is None:
        messages.info(request, _("No game is waiting for you."))
        return redirect("my_games")
    return redirect(game)


class GameHidden(Exception):
    """The game does not exist, or the viewer may not see it: the same answer either way."""


# The game and, in the same query, the viewer's seat's last visit (games.presence).
_games = RowReader(
    Game,
    join=f"LEFT JOIN {Seat._meta.db_table} s"
    " ON s.game_id = t.id AND s.user_id = %s AND NOT s.vacated",  # a seat held (Seat.objects)
    also="s.id, s.last_seen",
)


def _game_and_seat(game_id, user) -> tuple[Game, tuple] | None:
    """The game's row and (seat id, last_seen) of the seat ``user`` holds in it, if any."""
    return _games.read(game_id, [user.pk if user.is_authenticated else None])


def _visible_game(request, game_id) -> Game:
    user = request.user
    found = _game_and_seat(game_id, user)
    if found is None:
        raise GameHidden
    game, (seat_id, last_seen) = found
    if seat_id is None and not game.visible_to(user):  # a player may see their game
        raise GameHidden
    # Read with the game, so a poll every few seconds does not ask the cache too.
    game.viewer_last_seen = presence.NOT_SEATED if seat_id is None else last_seen
    return game


def _not_found(request):
    # Never Django's debug 404, which would list every URL of the site.
    if request.content_type == "application/json":
        return JsonResponse({"ok": False, "error": _("There is no such game.")}, status=404)
    return render(request, "404.html", status=404)


def game_route(view=None, *, invite_opens=False):
    """Every view of one game: load it and refuse, before anything else, a viewer
    who may not see it. Nothing of a hidden game (not even a refusal that renders
    its board) can be answered from a view that gets the game through here.
    Async views (``async def``) are gated alike.

    ``invite_opens``: a valid invite token in the request also lets the viewer
    see a private game (to join it).
    """

    def gate(request, game_id):
        try:
            return _visible_game(request, game_id)
        except GameHidden:
            if invite_opens:
                # An invite opens a game only while it waits for players: an
                # old link must not become a pass to read the game later.
                invited = Game.from_invite_token(_invite_token(request))
                if invited and invited.pk == game_id and invited.status == Game.Status.OPEN:
                    invited.viewer_last_seen = presence.NOT_SEATED  # not a player yet
                    return invited
            return None

    def decorate(view):
        if iscoroutinefunction(view):
            # An async view (a live stream): the gate reads the database in a thread.
            @functools.wraps(view)
            async def wrapper(request, game_id, *args, **kwargs):
                game = await sync_to_async(gate)(request, game_id)
                if game is None:
                    return await sync_to_async(_not_found)(request)
                return await view(request, game, *args, **kwargs)

        else:

            @functools.wraps(view)
            def wrapper(request, game_id, *args, **kwargs):
                game = gate(request, game_id)
                if game is None:
                    return _not_found(request)
                return view(request, game, *args, **kwargs)

        wrapper.game_route = True
        return wrapper

    return decorate(view) if view else decorate


def _invite_token(request) -> str | None:
    try:
        return _request_data(request).get("token")
    except play.PlayError:
        return None


class BadPosition(Exception):
    """``?at`` names no position of this game."""


def _at(request, game) -> int | None:
    """The past position asked for, in the viewer's numbers (None: the latest);
    BadPosition for one that does not exist."""
    if "at" not in request.GET:
        return None
    try:
        at = int(request.GET["at"])
    except (ValueError, OverflowError):
        raise BadPosition from None
    if not 0 <= at <= _moves_seen(request, game):
        raise BadPosition
    return at


def _moves_seen(request, game) -> int:
    """The moves in force that the viewer sees (games.numbering)."""
    seat = game.seat_of(request.user) if hasattr(game.engine, "secret") else None
    return numbering.numbering(game, seat.number if seat else None).total


def _bad_position(request, game):
    # A wrong link must not silently show another position than the one it names.
    message = _("This game has no position “%(at)s”: it has %(n)s moves.") % {
        "at": request.GET.get("at", "")[:20],
        "n": _moves_seen(request, game),
    }
    context = {"message": message, "game": game}
    template = "games/bad_position.html#notice" if request.htmx else "games/bad_position.html"
    return render(request, template, context, status=404)


@game_route
def game_page(request, game):
    presence.looked_at(request, game)
    if not game.was_played:
        return render(request, "games/open_game.html", _open_context(request, game))
    try:
        at = _at(request, game)
    except BadPosition:
        return _bad_position(request, game)

    def render_page(csrf_token):
        context = _board_context(request, game, at)
        if csrf_token is not None:
            context["csrf_token"] = csrf_token
        response = render(request, "games/game.html", context)
        response.request_id = context["page"].request_id
        return response

    return pagecache.serve(request, game, render_page)


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


def _board_context(
    request,
    game,
    at=None,
    error="",
    notice="",
    chat_kept=False,
    kept=None,
    state=None,
    error_near="",
    plan=False,
):
    """``error_near``: "chat" says ``error`` beside the chat form, not above the board.
    ``plan``: draw the viewer's planning board (games.premoves) instead of the board."""
    page = board_page(game, request.user, at=at, error=error, notice=notice, state=state)
    kind = game.kind_info
    planned = {}
    if plan and page.may_plan and at is None:
        planned = {"planning": True, "plan": planning.plan_for(page, request.user)}
    return {
        **planned,
        "game": game,
        "page": page,
        # "since your last turn", step by step (``?since=``)
        "catchup": catchup.catchup(
            game, page.viewer, request.GET.get("since"), page.at, page.view, page.numbers
        ),
        "view": page.view,
        "player_names": page.player_names,
        "board_template": kind.board_template,
        # chat_kept: the poller has the latest lines, htmx keeps them (hx-preserve)
        **({"chat": (), "chat_kept": True} if chat_kept else _chat_context(request, game)),
        "chat_max": settings.CHAT_MAX_LENGTH,
        # the parts the poller's page shows already (games.fragments)
        "kept_parts": kept or {},
        "error_near": error_near,
    }


@game_route
def board(request, game):
    """The board at a position, for the history buttons: the address bar gets the
    URL of exactly the position sent (HX-Push-Url), whatever the link said."""
    presence.seen(request, game.pk, game.viewer_last_seen)
    response = _board_response(request, game)
    if response.status_code == 200 and request.htmx:
        at = request.GET.get("at")
        query = [f"at={int(at)}"] if at is not None else []
        since_from = catchup.read_since(request.GET.get("since"), game)
        if since_from is not None:  # a step of "since your last turn" stays one
            query.insert(0, f"since={since_from}")
        url = game.get_absolute_url()
        response["HX-Push-Url"] = f"{url}?{'&'.join(query)}" if query else url
    return response


@game_route
def replay_since(request, game):
    """ "Since your last turn", from a turn mail or the notice: the first step of the
    others' moves since the viewer's last own move (or since ``?since``), on the board.
    (A private game is hidden from a signed-out visitor, as its page is.)"""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    seat = game.seat_of(request.user)
    if seat is None or not game.was_played:
        return redirect(game)
    numbers = numbering.numbering(game, seat.number)
    since_from = catchup.read_since(request.GET.get("since"), game)
    if since_from is None:
        since_from = numbers.shown(catchup.moves_before_turn(game, seat.number))
    if since_from >= numbers.total:
        return redirect(game)  # nothing happened since
    first = catchup.steps_since(game, seat.number, since_from, numbers)[0]
    query = f"since={since_from}" + (f"&at={first}" if first < numbers.total else "")
    return redirect(f"{game.get_absolute_url()}?{query}")


def _board_response(request, game, chat_kept=False, kept=None, plan=False):
    if not game.was_played:
        return _not_found(request)
    try:
        at = _at(request, game)
    except BadPosition:
        return _bad_position(request, game)
    htmx = bool(request.htmx)
    context = _board_context(
        request, game, at, chat_kept=chat_kept and htmx, kept=kept if htmx else None, plan=plan
    )
    return render(request, "games/game.html#board-area", context)


@require_GET
@game_route
def poll(request, game):
    """Cheap: compares two integers and answers 204 unless something changed.

    The board page gets the new board, or only the chat lines when nothing
    else changed; the waiting page of an open game (``?open=1``) is reloaded,
    since joining may have started the game.
    """
    presence.seen(request, game.pk, game.viewer_last_seen)
    try:
        seen = (int(request.GET.get("v", "")), int(request.GET.get("c", "")))
    except (ValueError, OverflowError):
        seen = None
    own_step = seen is not None and seen[0] == game.version and _own_secret_step(request, game)
    if seen == (game.version, game.chat_count) and not own_step:
        return HttpResponse(status=204)
    if request.GET.get("open") or game.status in (Game.Status.OPEN, Game.Status.ABORTED):
        return HttpResponseClientRefresh()
    if seen is not None and seen[0] == game.version and request.htmx and not own_step:
        return _chat_update(request, game)
    if seen is not None and request.GET.get("watching") and request.user.is_authenticated:
        since.watched(game, request.user, seen[0])
    # The poller's chat lines are still the latest ones: they stay out of the answer,
    # and so do the board and the log when they are drawn as the poller has them.
    return _board_response(
        request,
        game,
        chat_kept=seen is not None and seen[1] == game.chat_count,
        kept=fragments.kept_parts(request.GET.get("k", "")),
        plan=bool(request.GET.get("plan")),
    )


def _own_secret_step(request, game) -> bool:
    """The viewer made a secret step (games.numbering) that the polling page, drawn
    with token ``t``, does not show: one made from another tab. The version stays as
    it was for a secret step, so only the viewer's own token tells. Another seat's
    secret step leaves the viewer's token as it was: their poll stays empty."""
    token = request.GET.get("t")
    if not token or not game.secret_steps or not hasattr(game.engine, "secret"):
        return False
    seat = game.seat_of(request.user)
    if seat is None:
        return False
    known = replay.known_token(game, seat.number)
    if known is None:
        known = view_token(game.engine.view(replay.current_state(game), seat.number))
        replay.remember_token(game, seat.number, known)
    return known != token


def _chat_context(request, game) -> dict:
    if not game.chat_count:  # nothing was ever said (each line counts): no query
        return {"chat": [], "chat_more": False}
    lines = extend.visible_chat(game, request.user)
    lines, more = chat_window(lines, request.GET.get("chat") == "all")
    return {"chat": lines, "chat_more": more}


def _chat_update(request, game):
    """New chat lines swapped in beside the board (out of band), with the next poll."""
    context = {
        "game": game,
        **_chat_context(request, game),
        "oob": True,
        # the next poll still names the board and the log the page shows
        "kept": fragments.kept_parts(request.GET.get("k", "")),
        "planning": bool(request.GET.get("plan")),
    }
    response = render(request, "games/game.html#chat-update", context)
    response["HX-Reswap"] = "none"
    return response


@require_GET
@game_route
def version(request, game):
    return JsonResponse(
        {
            "version": game.version,
            "move_count": numbering.public_move_count(game),
            "status": game.status,
        }
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


RECORDED = gettext_lazy("Your earlier request had already arrived and was recorded.")


@dataclass
class GoTo:
    """What an operation returns to lead its player elsewhere (a rematch it started)."""

    place: Any  # anything with get_absolute_url


def _answer(
    request,
    game,
    error: play.PlayError | None = None,
    notice: str = "",
    done=None,
    data=None,
    error_near: str = "",
    plan: bool = False,
):
    """Answer a game request: JSON for API clients, the board for HTMX and pages.

    ``done``: what the operation returned; a move's game carries its new state,
    drawn as it is unless something changed the game since (a computer's move
    played right after the commit, when tasks run in the request).
    ``data``: what the click sent; its ``c``, the chat count of the page it came
    from, leaves chat lines the page has out of an HTMX answer (as for a poll).
    ``error_near``: see ``_board_context``. ``plan``: the answer is the planning board.
    """
    status = error.status if error else 200
    # The game as the operation left it, with the viewer's seat (a player sees their game).
    found = _game_and_seat(game.pk, request.user)
    if found is None:
        return _not_found(request)
    game, (seat_id, _last_seen) = found
    state = getattr(done, "played_state", None)
    position = (game.version, game.secret_steps, game.undo_count)
    if state is not None and (done.version, done.secret_steps, done.undo_count) != position:
        state = None
    if seat_id is None and not game.visible_to(request.user):
        # Let in by an invite and still not a player (the game filled up):
        # the refusal, and nothing of the game.
        message = error.message if error else ""
        if request.content_type == "application/json":
            return JsonResponse({"ok": False, "error": message}, status=status)
        return render(request, "404.html", {"message": message}, status=status)
    if request.content_type == "application/json":
        if error:
            return JsonResponse({"ok": False, "error": error.message}, status=status)
        answer = {
            "ok": True,
            "version": game.version,
            "move_count": numbering.public_move_count(game),
        }
        if notice:
            answer["recorded"] = True
        return JsonResponse(answer)
    if isinstance(done, GoTo):
        url = done.place.get_absolute_url()
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    message = error.message if error else ""
    if request.htmx and game.was_played:
        chat_kept = str((data or {}).get("c", "")) == str(game.chat_count)
        context = _board_context(
            request,
            game,
            error=message,
            notice=notice,
            state=state,
            chat_kept=chat_kept,
            error_near=error_near,
            plan=plan,
        )
        return render(request, "games/game.html#board-area", context, status=status)
    if error:
        if not game.was_played:
            messages.error(request, message)
            return render(
                request, "games/open_game.html", _open_context(request, game), status=status
            )
        context = _board_context(request, game, error=message, error_near=error_near, plan=plan)
        return render(request, "games/game.html", context, status=status)
    if notice:
        messages.info(request, notice)
    return redirect(reverse("game_plan", args=[game.pk]) if plan else game)


def _request_id(data) -> str | None:
    """The client-made token of one click: a retry sends the same one."""
    value = data.get("request_id")
    if value in (None, ""):
        return None
    if not isinstance(value, str) or not REQUEST_ID.fullmatch(value):
        raise play.PlayError(_("The request id must be 8 to 64 letters, digits, - or _."))
    return value


def _once(request, game, data, operation):
    """Run ``operation`` at most once per request id (``receipts.once``); what it returned."""
    return receipts.once(
        game, request.user, _request_id(data), lambda: operation(request, game.pk, data)
    )


def guarded(operation=None, *, invite_opens=False, error_near="", plan=False):
    """A POST that runs a play operation for a signed-in user who may see the
    game, turning refusals into answers (``error_near``, ``plan``: see ``_answer``)."""

    def decorate(operation):
        @require_POST
        @game_route(invite_opens=invite_opens)
        @functools.wraps(operation)
        def view(request, game):
            if not request.user.is_authenticated:
                if request.content_type == "application/json":
                    return JsonResponse({"ok": False, "error": _("Please sign in.")}, status=403)
                login = redirect_to_login(game.get_absolute_url())
                if request.htmx:
                    # A whole sign-in page must not land inside the board.
                    return HttpResponseClientRedirect(login["Location"])
                return login
            data = {}
            try:
                data = _request_data(request)
                done = _once(request, game, data, operation)
            except receipts.AlreadyRecorded:
                return _answer(request, game, notice=str(RECORDED), data=data, plan=plan)
            except play.PlayError as error:
                return _answer(request, game, error, data=data, error_near=error_near, plan=plan)
            return _answer(request, game, done=done, data=data, plan=plan)

        return view

    return decorate(operation) if operation else decorate


@guarded
def act(request, game_id, data):
    if "action" not in data:
        raise play.PlayError(_("No action was sent."))
    return play.act(game_id, request.user, data["action"], _seen_version(data))


@guarded
def undo(request, game_id, data):
    play.undo(game_id, request.user, _seen_version(data))


@game_route
def plan(request, game):
    """The viewer's planning board: their next turn as it begins if the players before
    them pass, to queue actions on (``games.premoves``). Not theirs to plan (their turn,
    a spectator, a past position, a game over): the game's page."""
    presence.looked_at(request, game)
    seated = game.viewer_last_seen is not presence.NOT_SEATED
    if not seated or not game.was_played or game.status != Game.Status.ACTIVE:
        return redirect(game)
    if request.htmx:
        return _board_response(request, game, plan=True)

    def render_page(csrf_token):
        context = _board_context(request, game, plan=True)
        if csrf_token is not None:
            context["csrf_token"] = csrf_token
        response = render(request, "games/game.html", context)
        response.request_id = context["page"].request_id
        return response

    return pagecache.serve(request, game, render_page)


@guarded(plan=True)
def premove(request, game_id, data):
    """Queue one action for the next turn (``action``, with the planning board's
    ``version``), or forget the queue (``clear``)."""
    if data.get("clear"):
        planning.clear(game_id, request.user)
        return None
    if "action" not in data:
        raise play.PlayError(_("No action was sent."))
    seen = _seen_version(data)
    planning.queue(game_id, request.user, data["action"], seen if isinstance(seen, str) else None)
    return None


@guarded
def resign(request, game_id, data):
    play.resign(game_id, request.user)


@guarded(error_near="chat")  # a refused line is said beside the chat form
def chat(request, game_id, data):
    text = data.get("text", "")
    if not isinstance(text, str):
        raise play.PlayError(_("A chat message must be text."))
    play.post_chat(game_id, request.user, text)


@guarded(invite_opens=True)
def join(request, game_id, data):
    game = Game.objects.get(pk=game_id)
    if game.private and Game.from_invite_token(data.get("token")) != game:
        raise play.PlayError(_("This private game needs an invite link."), 403)
    play.join(game_id, request.user)


@guarded
def seen(request, game_id, data):
    """The player dismisses "since you last looked": what they see now counts as seen."""
    seat = Seat.objects.filter(game_id=game_id, user=request.user).first()
    if seat is None:
        raise play.PlayError(_("You are not playing in this game."), 403)
    since.mark_seen(Game.objects.get(pk=game_id), seat.pk)


@guarded
def leave(request, game_id, data):
    play.leave(game_id, request.user)


@guarded(invite_opens=True)
def take_seat(request, game_id, data):
    game = Game.objects.get(pk=game_id)
    if game.private and Game.from_invite_token(data.get("token")) != game:
        raise play.PlayError(_("This private game needs an invite link."), 403)
    play.take_seat(game_id, request.user)


@guarded
def reclaim_seat(request, game_id, data):
    play.reclaim_seat(game_id, request.user)


def invite(request, token):
    game = Game.from_invite_token(token)
    if game is None:
        return _not_found(request)
    if game.status != Game.Status.OPEN:
        if game.visible_to(request.user):
            return redirect(game)
        # A late friend with a link that opens nothing any more: say why, and nothing
        # of the game but its kind (an old link is no pass to read the game).
        return render(request, "games/invite_closed.html", {"game": game}, status=410)
    return render(request, "games/open_game.html", _open_context(request, game, token=token))


@require_GET
@game_route
def game_record(request, game):
    """The game as JSON: the full record once it is over, what the viewer sees while it runs."""
    if not game.was_played:
        return _not_found(request)
    data = record.export(game, request.user)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response
