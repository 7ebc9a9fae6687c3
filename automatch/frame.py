"""What automatch adds to the frame's pages (``games.extend``): in the lobby, how many
players are looking per title, and, for a player who is looking, their tickets'
watcher that takes the page to the game when one is matched."""

from __future__ import annotations

from games import extend

from . import tickets
from .models import Ticket


def _lobby(context) -> dict:
    user = context.get("user")
    mine = []
    if user is not None and user.is_authenticated:
        mine = list(
            Ticket.objects.filter(user=user, status=Ticket.Status.OPEN).values_list("pk", flat=True)
        )
    return {"looking": tickets.looking(), "my_ticket_ids": mine}


def register() -> None:
    extend.add_part("lobby", "automatch/_lobby.html", _lobby, order=20)
