"""One game: the caller's view, its actions, acting, the history, the chat, the
premove queue and agreements. Each operation loads the game through the page's
visibility gate (``api.gate``) before anything else."""

from __future__ import annotations

from ninja import Router

from agreements import flows
from games import planning, play

from . import reading
from .acting import once, seen_version
from .auth import need
from .errors import ApiError
from .gate import visible_game
from .schemas import ActIn, AnswerIn, AskIn, ChatIn, Error, PremoveIn, UndoIn

router = Router(tags=["games"])
REFUSALS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error}
GAME = "/games/{int:game_id}"


@router.get(GAME, response={200: dict, **REFUSALS})
def game(request, game_id: int):
    """The game as the caller's page shows it: ``view`` is ``engine.view`` for their
    seat (a spectator's for anyone else), by the rules of ``kind`` at ``rules_version``."""
    need(request, "read")
    return reading.game(visible_game(request, game_id), request.user)


@router.get(GAME + "/actions", response={200: dict, **REFUSALS})
def actions(request, game_id: int):
    """The caller's legal actions now, each with its label; none when it is not their turn."""
    need(request, "read")
    return reading.actions(visible_game(request, game_id), request.user)


@router.post(GAME + "/act", response={200: dict, **REFUSALS})
def act(request, game_id: int, body: ActIn):
    """Make one action. ``version`` is the game's version or token as read: a move
    made on a position the caller no longer sees is refused (409, stale_version)."""
    need(request, "play")
    game = visible_game(request, game_id)
    seen = seen_version(body.version)
    return once(
        request,
        game,
        body.idempotency_key,
        lambda: play.act(game.pk, request.user, body.action, seen),
    )


@router.post(GAME + "/undo", response={200: dict, **REFUSALS})
def undo(request, game_id: int, body: UndoIn):
    need(request, "play")
    game = visible_game(request, game_id)
    seen = seen_version(body.version)
    return once(request, game, body.idempotency_key, lambda: play.undo(game.pk, request.user, seen))


@router.get(GAME + "/history", response={200: dict, **REFUSALS})
def history(request, game_id: int):
    """The log the caller's page shows, in the request's language."""
    need(request, "read")
    return reading.history(visible_game(request, game_id), request.user)


@router.get(GAME + "/chat", response={200: list[dict], **REFUSALS})
def chat(request, game_id: int):
    need(request, "read")
    return reading.chat(visible_game(request, game_id), request.user)


@router.post(GAME + "/chat", response={200: dict, **REFUSALS})
def post_chat(request, game_id: int, body: ChatIn):
    need(request, "chat")
    game = visible_game(request, game_id)
    return once(
        request,
        game,
        body.idempotency_key,
        lambda: play.post_chat(game.pk, request.user, body.text),
    )


@router.get(GAME + "/premoves", response={200: dict, **REFUSALS})
def premoves(request, game_id: int):
    """The caller's queue for their next turn and the actions they may add to it."""
    need(request, "read")
    return reading.premove_queue(visible_game(request, game_id), request.user)


@router.post(GAME + "/premoves", response={200: dict, **REFUSALS})
def queue_premove(request, game_id: int, body: PremoveIn):
    """Queue one action; ``version``: the queue's ``token`` as read."""
    need(request, "play")
    game = visible_game(request, game_id)
    return once(
        request,
        game,
        None,
        lambda: planning.queue(game.pk, request.user, body.action, body.version),
    )


@router.delete(GAME + "/premoves", response={200: dict, **REFUSALS})
def clear_premoves(request, game_id: int):
    need(request, "play")
    game = visible_game(request, game_id)
    return once(request, game, None, lambda: planning.clear(game.pk, request.user))


@router.get(GAME + "/agreements", response={200: dict, **REFUSALS})
def agreements(request, game_id: int):
    """The request waiting for the table's answers, if any (the players' own)."""
    need(request, "read")
    game = visible_game(request, game_id)
    if game.seat_of(request.user) is None:
        raise ApiError(403, "not_a_player", "You are not playing in this game.")
    return {"open": reading.agreement(flows.open_request(game))}


@router.post(GAME + "/agreements", response={200: dict, **REFUSALS})
def ask(request, game_id: int, body: AskIn):
    """Ask the table: a pause until a date, the end of a pause, or taking back a turn."""
    need(request, "play")
    game = visible_game(request, game_id)
    return once(
        request, game, None, lambda: flows.ask(game.pk, request.user, body.kind, body.until)
    )


@router.post(GAME + "/agreements/answer", response={200: dict, **REFUSALS})
def answer(request, game_id: int, body: AnswerIn):
    need(request, "play")
    game = visible_game(request, game_id)
    return once(
        request,
        game,
        None,
        lambda: flows.answer(game.pk, request.user, body.request_id, body.agree),
    )


@router.delete(GAME + "/agreements", response={200: dict, **REFUSALS})
def withdraw(request, game_id: int):
    need(request, "play")
    game = visible_game(request, game_id)
    return once(request, game, None, lambda: flows.withdraw(game.pk, request.user))
