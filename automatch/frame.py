"""What automatch adds to the frame's pages (``games.extend``): in the lobby, how many
players are looking per title, and, for a player who is looking, their tickets'
watcher that takes the page to the game when one is matched."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import extend

from . import tickets

MATCHER_MARGIN = timedelta(seconds=5)


def _lobby(context) -> dict:
    found = tickets.looking(context.get("user"))
    # A few seconds back: a matcher that claimed the player's ticket before this page
    # read it may commit after.
    since = tickets.stamp(timezone.now() - MATCHER_MARGIN) if found.mine else None
    return {"looking": found.counts, "watch_since": since, "watch_ids": ""}


def register() -> None:
    extend.add_part("lobby", "automatch/_lobby.html", _lobby, order=20)
