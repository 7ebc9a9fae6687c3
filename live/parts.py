"""Where live updates show themselves: a stream on every game page and on the waiting
page of an open game (``game-live``), and on every other page of a signed-in player
(``page-end``), which then carries only news of the player's badge."""

from __future__ import annotations

from django.core.handlers.asgi import ASGIRequest

from games import extend
from games.models import Game


def _served_by_asgi(context) -> bool:
    """Only an ASGI server holds streams open (``live.streams``): a page served by WSGI
    polls as before, without trying. (A cached game page keeps what its server drew: a
    site moving from WSGI to ASGI has its pages poll until they are drawn anew.)"""
    return isinstance(context.get("request"), ASGIRequest)


def _user_pages(context) -> dict | None:
    return {} if _served_by_asgi(context) else None


def _game_page(context) -> dict | None:
    if not _served_by_asgi(context):
        return None
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
    extend.add_part("page-end", "live/_user_stream.html", _user_pages)
