"""Changing a game through the API: the frame's operations (``games.play``), once per
idempotency key, as the page's ``games.views.guarded`` runs them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import numbering, play, receipts
from games.models import Game

from .errors import ApiError, from_play_error


def seen_version(value: int | str | None) -> int | str | None:
    """The game's version, or the view token the caller read (``token`` of the game)."""
    if value is None or isinstance(value, int):
        return value
    if value.startswith("v"):
        return value
    raise ApiError(400, "invalid_input", "version must be the game's version or its token.")


def once(request, game: Game, key: str | None, operation: Callable[[], Any]) -> dict[str, Any]:
    """Run ``operation`` at most once per (game, person, key): the key is stored in the
    operation's own transaction, so a retry after a lost answer finds it and acts not
    again. The answer: the game's version after it, and whether it was a retry."""
    recorded = False
    try:
        receipts.once(game, request.user, key, operation)
    except receipts.AlreadyRecorded:
        recorded = True
    except play.PlayError as error:
        raise from_play_error(error) from None
    game = Game.objects.get(pk=game.pk)
    answer = {
        "ok": True,
        "version": game.version,
        "move_count": numbering.public_move_count(game),
        "status": game.status,
    }
    if recorded:
        answer["recorded"] = True
    return answer
