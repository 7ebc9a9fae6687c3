"""A game for the API, through the game page's own visibility gate."""

from __future__ import annotations

from django.http import HttpResponseBase

from games.models import Game
from games.views import game_route

from .errors import not_found


@game_route
def _through_the_gate(request, game):
    return game


def visible_game(request, game_id: int) -> Game:
    """The game if ``request.user`` may see it (a player of it, or it is public);
    else the same "not found" whether or not it exists."""
    found = _through_the_gate(request, game_id)
    if isinstance(found, HttpResponseBase):
        raise not_found()
    return found
