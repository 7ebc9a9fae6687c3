"""The caller, their games, the lobby (open games, create, join, leave), tournaments
and ladders: the same functions the pages call."""

from __future__ import annotations

from ninja import Router

from games import lists, play, registry
from games.forms import NewGameForm
from games.models import Game
from lobby.listing import LobbyFilter, open_games
from tournaments import ladders, lookup, running

from . import botaccounts, reading
from .acting import once
from .auth import need
from .errors import ApiError, from_play_error
from .gate import visible_game
from .schemas import CreateGameIn, Error, JoinIn, LadderIn

router = Router()
REFUSALS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error}


@router.get("/me", response={200: dict, **REFUSALS}, tags=["me"])
def me(request):
    need(request, "read")
    user, token = request.user, request.api_token
    return {
        "username": user.username,
        "name": user.name,
        "bot": user.is_bot or botaccounts.is_bot_account(user),
        "token": {"name": token.name, "scopes": sorted(token.scope_set)},
    }


@router.get("/me/games", response={200: list[dict], **REFUSALS}, tags=["me"])
def my_games(request):
    """The caller's running and open games, those where it is their turn first."""
    need(request, "read")
    running_seats, _finished = lists.my_seats(request.user)
    return reading.my_seats(running_seats)


@router.get("/lobby", response={200: list[dict], **REFUSALS}, tags=["lobby"])
def lobby(request, kind: str = "", players: int | None = None):
    """Public games waiting for players, newest first (the lobby's own list)."""
    need(request, "read")
    chosen = LobbyFilter({"title": kind, "players": players or ""})
    return reading.summaries(list(open_games(chosen)))


@router.post("/lobby", response={200: dict, **REFUSALS}, tags=["lobby"])
def create(request, body: CreateGameIn):
    """A new game, checked by the page's own form (titles' options included)."""
    need(request, "play")
    try:
        kind = registry.get(body.kind)
    except KeyError:
        raise ApiError(404, "not_found", "There is no such kind of game.") from None
    # The options left out take their defaults, as the page's form offers them.
    defaults = {spec["name"]: spec.get("default") for spec in kind.engine.options_schema()}
    options = {**defaults, **body.options}
    fields = {
        "title": body.title or kind.engine.name,
        "players": body.players,
        "time_limit_days": body.time_limit_days,
        "timeout_policy": body.timeout_policy,
        "pause_days": body.pause_days,
        **({"private": "on"} if body.private else {}),
        **({"vacation_allowed": "on"} if body.vacation_allowed else {}),
        "clock": body.clock,
        **({"weekends_off": "on"} if body.weekends_off else {}),
        **{f"option_{name}": _form_value(value) for name, value in options.items()},
        **{f"computer_{n + 2}": strength for n, strength in enumerate(body.computer_players)},
    }
    form = NewGameForm(kind.engine, fields)
    if not form.is_valid():
        errors = "; ".join(f"{name}: {' '.join(e)}" for name, e in form.errors.items())
        raise ApiError(400, "invalid_input", errors)
    try:
        game = form.create_game(request.user, kind)
    except play.PlayError as error:
        raise from_play_error(error) from None
    game.refresh_from_db()
    return reading.summary(game) | {"invite_token": game.invite_token() if game.private else None}


def _form_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    return str(value)


@router.post("/games/{int:game_id}/join", response={200: dict, **REFUSALS}, tags=["lobby"])
def join(request, game_id: int, body: JoinIn):
    """Take a seat in an open game (a private one with its invite token)."""
    need(request, "play")
    try:
        game = visible_game(request, game_id)
    except ApiError:
        invited = Game.from_invite_token(body.invite_token)
        if invited is None or invited.pk != game_id or invited.status != Game.Status.OPEN:
            raise
        game = invited
    if game.private and Game.from_invite_token(body.invite_token) != game:
        if game.seat_of(request.user) is None:
            raise ApiError(403, "forbidden", "This private game needs its invite token.")
    return once(request, game, None, lambda: play.join(game.pk, request.user))


@router.post("/games/{int:game_id}/leave", response={200: dict, **REFUSALS}, tags=["lobby"])
def leave(request, game_id: int):
    """Leave a game that has not started (its creator's leaving cancels it)."""
    need(request, "play")
    game = visible_game(request, game_id)
    return once(request, game, None, lambda: play.leave(game.pk, request.user))


@router.get("/tournaments", response={200: dict, **REFUSALS}, tags=["tournaments"])
def tournaments(request):
    """Tournaments open for entries, and the ladders."""
    need(request, "read")
    return {
        "tournaments": [
            {
                "id": t.pk,
                "name": t.name,
                "kind": t.kind,
                "format": t.format,
                "table_size": t.table_size,
                "signup_closes": t.signup_closes.isoformat(),
                "entrants": t.entrant_count,
                "max_entrants": t.max_entrants,
            }
            for t in lookup.open_for_entries()
        ],
        "ladders": [
            {"id": ladder.pk, "name": ladder.name, "kind": ladder.kind}
            for ladder in lookup.active_ladders()
        ],
    }


@router.post(
    "/tournaments/{int:tournament_id}/enter", response={200: dict, **REFUSALS}, tags=["tournaments"]
)
def enter(request, tournament_id: int):
    need(request, "play")
    try:
        running.enter(tournament_id, request.user)
    except play.PlayError as error:
        raise from_play_error(error) from None
    return {"ok": True}


@router.post(
    "/ladders/{int:ladder_id}/join", response={200: dict, **REFUSALS}, tags=["tournaments"]
)
def join_ladder(request, ladder_id: int, body: LadderIn):
    need(request, "play")
    try:
        ladders.join(ladder_id, request.user, body.games_at_once)
    except play.PlayError as error:
        raise from_play_error(error) from None
    return {"ok": True}
