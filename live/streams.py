"""One live stream: subscribed first, then told what the page may have missed, then
every change of its channels as it happens, a heartbeat while nothing does, and an
end after ``LIVE_STREAM_SECONDS`` (the browser reconnects, and is let in anew).

Served only under ASGI (uvicorn: ``make run``, and gunicorn with uvicorn workers in
production): a WSGI server would have to hold a thread per stream. While a stream
waits it holds no thread and no database connection, only its place in the hub.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import weakref

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from . import caps, channels, hub, keeper, signals

logger = logging.getLogger(__name__)

_last_warning = 0.0


def _warn(message: str, *args) -> None:
    """A warning at most every ten seconds: a Redis outage meets many streams at once."""
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 10:
        _last_warning = now
        logger.warning(message, *args)


def wants_events(request) -> bool:
    return "text/event-stream" in request.headers.get("Accept", "")


def not_acceptable() -> HttpResponse:
    # A plain GET (a crawler, a test walking every route) is not a stream.
    return HttpResponse(
        _("This address sends live updates to a page (text/event-stream)."),
        status=406,
        content_type="text/plain; charset=utf-8",
    )


def unavailable() -> HttpResponse:
    # 204, "no stream here": the browser's EventSource gives up (as on any answer but a
    # 200 stream), htmx's SSE extension tries again later with a growing pause, and
    # meanwhile the page polls. Not a 5xx: nothing failed (the warning is ours, once).
    return HttpResponse(status=204)


def too_many() -> HttpResponse:
    return HttpResponse(status=429, content_type="text/plain")


class Stream:
    """What an open stream holds, given back once when it ends (however it ends)."""

    def __init__(self, inbox: hub.Inbox, place: str, watch: tuple[int, int] | None) -> None:
        self.inbox, self.place, self.watch = inbox, place, watch
        self.closed = False
        if watch is not None:
            keeper.watch(*watch)
        signals.stream_opened.send_robust(sender=Stream)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.inbox.close()
        caps.release(self.place)
        signals.stream_closed.send_robust(sender=Stream)
        if self.watch is not None:
            keeper.unwatch(*self.watch)


class Feed:
    """What a stream sends: ``first()`` once subscribed (what the client may have
    missed), then ``news(items)`` for what its channels told meanwhile (``hub.END``
    among them: the stream ends after it). ``done``: end the stream after what was
    just sent (the client reconnects, and is let in anew)."""

    done = False

    async def first(self) -> bytes:
        return b""

    async def news(self, items: list) -> bytes:
        return b""


class PageFeed(Feed):
    """A page's stream: the newest state of its game and one badge event, however many
    came meanwhile (nothing of the game: the page fetches it through its views)."""

    def __init__(self, first, game_name: str | None = None) -> None:
        self._first, self.game_name = first, game_name

    async def first(self) -> bytes:
        return await self._first()

    async def news(self, items: list) -> bytes:
        return _encode(items, self.game_name)


async def respond(request, names, feed: Feed, watch=None, key: str | None = None) -> HttpResponse:
    """A stream of ``names`` (channels) for ``request``, sending what ``feed`` makes of
    them; ``watch``: (game, user) of a player whose presence the stream keeps up;
    ``key``: whose cap of open streams it counts against (default: the viewer's,
    ``caps.key_of``)."""
    if not isinstance(request, ASGIRequest):
        return unavailable()
    place = secrets.token_hex(8)
    try:
        # In a thread: who the viewer is may still need the session from the database.
        if not await sync_to_async(lambda: caps.take(key or caps.key_of(request), place))():
            return too_many()
        inbox = await hub.current().open(names)
    except hub.Unavailable as error:
        caps.release(place)
        _warn("live updates: a stream was refused, its page polls: %s", error)
        return unavailable()
    except BaseException:
        caps.release(place)
        raise
    stream = Stream(inbox, place, watch)
    try:
        # Subscribed already: whatever is committed from now on is both read and told.
        head = channels.retry(random.randint(1000, 6000)) + await feed.first()
    except BaseException:
        stream.close()
        raise
    keeper.ensure_running()
    events = _events(stream, head, feed)
    # Should the response never be sent (the client left at once), the stream is given
    # back when its generator is collected: a generator never started runs no finally.
    weakref.finalize(events, stream.close)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _events(stream: Stream, head: bytes, feed: Feed):
    loop = asyncio.get_running_loop()
    lifetime = settings.LIVE_STREAM_SECONDS * random.uniform(0.8, 1.0)  # not all at once
    deadline = loop.time() + lifetime
    beat = settings.LIVE_HEARTBEAT_SECONDS
    try:
        yield head
        if feed.done:
            return
        while (left := deadline - loop.time()) > 0:
            try:
                async with asyncio.timeout(min(beat, left)):
                    item = await stream.inbox.get()
            except TimeoutError:
                yield channels.HEARTBEAT
                continue
            items = [item, *stream.inbox.pending()]
            out = await feed.news(items)
            if out:
                yield out
            if hub.END in items or feed.done:
                return
    finally:
        stream.close()


def _encode(items: list, game_name: str | None) -> bytes:
    """The newest state of the game and one badge event, however many came meanwhile."""
    state, badge = None, False
    for item in items:
        if item is hub.END:
            break
        name, data = item
        if name == game_name:
            state = channels.GameState.parse(data) or state
        else:
            badge = True
    out = channels.game_event(state) if state else b""
    return out + (channels.badge_event() if badge else b"")
