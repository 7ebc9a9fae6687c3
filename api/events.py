"""One event stream per token (server-sent events), on the live app's hub: the
caller's own channel and the channels of their games, as the pages' streams.

What travels is what the caller may know: ``my_turn`` (a game waits for their move),
``game`` (a game of theirs moved on, or ended: its version), ``chat`` (a line was said in it:
its chat count), ``invitation`` (someone invited them to a game). On connect, the turns
and invitations that wait already. A program reads the game through the API then.
A stream ends after ``LIVE_STREAM_SECONDS`` or when the caller's games changed (a new
one: its channel must be listened to); the client connects again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.db import connection
from ninja import Router

from games.models import Game, Seat
from live import channels, hub, streams
from lobby.invites import pending_for

from .auth import need

router = Router(tags=["events"])


@dataclass
class Known:
    """What the stream has told the caller so far."""

    games: dict[int, tuple[int, int]] = field(default_factory=dict)  # version, chat count
    turns: set[int] = field(default_factory=set)
    invitations: set[int] = field(default_factory=set)


def _event(name: str, data: dict) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def read_games(user) -> tuple[dict[int, tuple[int, int]], set[int]]:
    """The caller's games that have not ended (version, chat count), and those where it
    is their turn."""
    seats = Seat.objects.filter(person=user, ended_at=None).select_related("game")
    games = {s.game_id: (s.game.version, s.game.chat_count) for s in seats}
    return games, {s.game_id for s in seats if s.to_move}


def news(user, known: Known) -> bytes:
    """Events for what changed since ``known`` (updated in place)."""
    games, turns = read_games(user)
    out = b""
    for game_id, (version, chat_count) in games.items():
        before = known.games.get(game_id)
        if before is not None and before[0] != version:
            out += _event("game", {"game": game_id, "version": version})
        if before is not None and before[1] != chat_count:
            out += _event("chat", {"game": game_id, "chat_count": chat_count})
    ended = set(known.games) - set(games)  # over, or the caller left it: told once more
    for game_id, version in Game.objects.filter(pk__in=ended).values_list("pk", "version"):
        out += _event("game", {"game": game_id, "version": version})
    for game_id in sorted(turns - known.turns):
        out += _event("my_turn", {"game": game_id})
    invitations = list(pending_for(user))
    for invitation in invitations:
        if invitation.pk not in known.invitations:
            out += _event(
                "invitation",
                {
                    "id": invitation.pk,
                    "game": invitation.game_id,
                    "by": invitation.invited_by.username,
                },
            )
    known.games, known.turns = games, turns
    known.invitations = {i.pk for i in invitations}
    return out


def _news_between_requests(user, known: Known) -> bytes:
    """``news`` from the stream after its request returned: in a thread no request
    owns, whose database connection nothing else would close."""
    try:
        return news(user, known)
    finally:
        connection.close()


class TokenFeed(streams.Feed):
    """The token's events on the live streams' machinery (``live.streams.respond``: the
    cap, the subscription before the first read, the heartbeat, the end, the place
    given back however the stream ends): the caller's own channel and those of their
    games, each change read from the database and told as JSON."""

    def __init__(self, user, games: set[int]) -> None:
        self.user, self.known, self.listened = user, Known(), games

    async def first(self) -> bytes:
        # Read once subscribed: what is committed meanwhile is read here or told later.
        out = await sync_to_async(news)(self.user, self.known)
        for game_id, (version, chat_count) in self.known.games.items():
            hub.remember(
                channels.game_channel(game_id), channels.GameState(version, chat_count).wire
            )
        self.done = bool(set(self.known.games) - self.listened)  # a game not listened to
        return out

    async def news(self, items: list) -> bytes:
        out = await sync_to_async(_news_between_requests)(self.user, self.known)
        self.done = bool(set(self.known.games) - self.listened)  # a new game's channel
        return out


@router.get("/events", response={200: None}, tags=["events"])
async def events(request):
    """Server-sent events: ``my_turn``, ``game``, ``chat``, ``invitation`` (JSON data)."""
    await sync_to_async(need)(request, "read")
    user = request.user
    games, _turns = await sync_to_async(read_games)(user)
    names = [channels.user_channel(user.pk), *(channels.game_channel(g) for g in games)]
    feed = TokenFeed(user, set(games))
    response = await streams.respond(request, names, feed, key=f"api:{request.api_token.pk}")
    return response
