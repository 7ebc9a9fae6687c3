"""Where live updates show themselves: a stream on every game page and on the waiting
page of an open game (``game-live``), and on every other page of a signed-in player
(``page-end``), which then carries only news of the player's badge."""

from __future__ import annotations

from games import extend
from games.models import Game


def _game_page(context) -> dict | None:
    game = context.get("game")
    if game is None:
        return None
    if context.get("page") is None:  # the waiting page of an open game
        if game.status != Game.Status.OPEN:
            return None
        if game.private and context.get("seat") is None:
            return None  # let in by an invite, not a player: the stream is not theirs
    return {}


def register() -> None:
    extend.add_part("game-live", "live/_game_stream.html", _game_page)
    extend.add_part("page-end", "live/_user_stream.html")
