"""The stream of a game page, the stream of any other page of a signed-in player,
and the badge such a page fetches when its stream says it may have changed."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import presence
from games.models import Game
from games.views import game_route

from . import channels, hub, streams


def _read_state(game_id: int) -> channels.GameState | None:
    row = Game.objects.filter(pk=game_id).values_list("version", "chat_count").first()
    return channels.GameState(*row) if row else None


@require_GET
@game_route
async def game_stream(request, game):
    """Tells the page each new version and chat count of ``game`` (the page then
    fetches the change as its poll did), and its player when their badge may have
    changed. Private games: 404 to outsiders, before anything else (``game_route``)."""
    if not streams.wants_events(request):
        return streams.not_acceptable()
    user = request.user
    names = [channels.game_channel(game.pk)]
    if user.is_authenticated:
        names.append(channels.user_channel(user.pk))
    seated = game.viewer_last_seen is not presence.NOT_SEATED
    await sync_to_async(presence.looked_at)(request, game)
    # What the page was told last: the browser's Last-Event-ID on a reconnect, else the
    # version the page was drawn with.
    known = channels.GameState.parse(request.headers.get("Last-Event-ID"))
    reconnect = known is not None
    if known is None:
        known = channels.GameState.parse(f"{request.GET.get('v')} {request.GET.get('c')}")

    async def first() -> bytes:
        # Read again now that the stream listens: nothing committed since is missed.
        state = await sync_to_async(_read_state)(game.pk)
        if state is None:
            return b""
        hub.remember(names[0], state.wire)
        head = channels.event_id(state) if state == known else channels.game_event(state)
        # A player's badge may have changed while the browser was away.
        return head + (channels.badge_event() if reconnect and len(names) > 1 else b"")

    watch = (game.pk, user.pk) if seated else None
    return await streams.respond(request, names, streams.PageFeed(first, names[0]), watch=watch)


@require_GET
async def user_stream(request):
    """Any other page of a signed-in player: tells it when its badge may have changed."""
    if not streams.wants_events(request):
        return streams.not_acceptable()
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse(status=204)  # nothing to tell anyone else
    reconnect = "Last-Event-ID" in request.headers

    async def first() -> bytes:
        return b"id: me\n\n" + (channels.badge_event() if reconnect else b"")

    return await streams.respond(request, [channels.user_channel(user.pk)], streams.PageFeed(first))


@require_GET
def badge(request):
    """The menu's badge as it stands (what ``_turn_badge.html`` draws in the menu)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    response = render(request, "_turn_badge.html")
    response["Cache-Control"] = "no-store"
    return response
