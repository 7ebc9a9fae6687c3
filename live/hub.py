"""The broadcaster: which open streams listen to which channel, and how a change
reaches them.

With Redis (``LIVE_REDIS_URL``, by default ``REDIS_URL``) every app process keeps ONE
connection subscribed to the channels its streams listen to (one channel per game,
one per signed-in player), and a change is published there after its commit, so a
move made on any app server (or in a Celery worker) reaches the streams of all of
them. If that connection is lost, every stream of the process ends: the pages poll
as they did before live updates and reconnect with backoff; a stream refused while
Redis is down answers 503, and the page keeps polling. Nothing is retried silently,
so no page believes it is up to date when it may have missed a change.

Without Redis (``make run``), an in-process hub serves the streams of the single
process; changes made elsewhere (the Celery worker beside it, a management command)
are found by ``live.keeper``, which compares the watched games' versions and players'
badges every two seconds.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterable

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from . import channels
from .resp import Lost, Subscriber

logger = logging.getLogger(__name__)

END = object()  # put in an inbox: its stream must end
PING_SECONDS = 30.0  # the subscribed connection is checked this often
CONFIRM_SECONDS = 2.0  # Redis confirms a SUBSCRIBE within this, or the stream is refused
RETRY_AFTER = 5.0  # after a failed publish, Redis is left alone this long


class Unavailable(Exception):
    """Live updates cannot be served now (Redis is down): the page polls."""


class Inbox:
    """What one stream has been told and has not sent yet."""

    def __init__(self, hub, names: Iterable[str]) -> None:
        self.hub = hub
        self.loop = asyncio.get_running_loop()
        self.channels = tuple(names)
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closed = False

    def put(self, item) -> None:  # in the inbox's event loop
        if not self.closed:
            self.queue.put_nowait(item)

    def put_threadsafe(self, item) -> None:
        try:
            self.loop.call_soon_threadsafe(self.put, item)
        except RuntimeError:  # the loop is closed: the stream is gone
            pass

    async def get(self):
        return await self.queue.get()

    def pending(self) -> list:
        """Whatever else is waiting already (the stream sends the newest state once)."""
        items = []
        while not self.queue.empty():
            items.append(self.queue.get_nowait())
        return items

    def close(self) -> None:
        """Stop listening (idempotent, from any thread: a finalizer may call it)."""
        if self.closed:
            return
        self.closed = True
        self.hub.leave(self)


# -- without Redis: one process ------------------------------------------------------


class LocalHub:
    """The streams of this process, told directly by the process's own changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Inbox]] = {}
        self._told: dict[str, str] = {}  # per channel listened to: the last message

    async def open(self, names: Iterable[str]) -> Inbox:
        inbox = Inbox(self, names)
        with self._lock:
            for name in inbox.channels:
                self._listeners.setdefault(name, set()).add(inbox)
        return inbox

    def leave(self, inbox: Inbox) -> None:
        with self._lock:
            for name in inbox.channels:
                listeners = self._listeners.get(name)
                if listeners is not None:
                    listeners.discard(inbox)
                    if not listeners:
                        del self._listeners[name]
                        self._told.pop(name, None)

    def publish(self, messages: Iterable[tuple[str, str]]) -> None:
        """From any thread: each message to the inboxes listening to its channel."""
        with self._lock:
            targets = []
            for name, data in messages:
                listeners = self._listeners.get(name, ())
                if listeners:
                    self._told[name] = data
                targets += [(inbox, name, data) for inbox in listeners]
        for inbox, name, data in targets:
            inbox.put_threadsafe((name, data))

    def told(self, name: str) -> str | None:
        """The last message on ``name`` (None: nothing yet), for ``live.keeper``."""
        with self._lock:
            return self._told.get(name)

    def remember(self, name: str, data: str) -> None:
        """What a new stream read (or the keeper found) first: changes are compared
        with it; a message told already is not replaced."""
        with self._lock:
            if name in self._listeners:
                self._told.setdefault(name, data)

    def channels(self) -> list[str]:
        with self._lock:
            return list(self._listeners)

    def count(self) -> int:
        with self._lock:
            return len({inbox for listeners in self._listeners.values() for inbox in listeners})


# -- with Redis: any number of processes ---------------------------------------------


class RedisHub:
    """One subscribed connection for all the streams of this process (and event loop)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop = asyncio.get_running_loop()
        self._listeners: dict[str, set[Inbox]] = {}
        self._confirmations: dict[str, asyncio.Future] = {}
        self._subscriber: Subscriber | None = None
        self._tasks: list[asyncio.Task] = []
        self._pong = 0.0
        self._lock = asyncio.Lock()

    async def open(self, names: Iterable[str]) -> Inbox:
        inbox = Inbox(self, names)
        async with self._lock:
            if self._subscriber is None:
                await self._connect()
            fresh = [name for name in inbox.channels if name not in self._listeners]
            for name in inbox.channels:
                self._listeners.setdefault(name, set()).add(inbox)
            waits = [self._confirmations.setdefault(n, self.loop.create_future()) for n in fresh]
            if fresh:
                try:
                    self._subscriber.send("SUBSCRIBE", *fresh)
                except Lost as error:
                    self._lost(error)
        try:
            # Subscribed before the stream reads what the page may have missed: a change
            # committed in between is then both read and told (the page compares).
            async with asyncio.timeout(CONFIRM_SECONDS):
                await asyncio.gather(*waits)
        except (TimeoutError, Lost) as error:
            inbox.close()
            raise Unavailable(f"Redis did not confirm the subscription: {error!r}") from None
        if inbox.closed:  # the connection was lost meanwhile
            raise Unavailable("the connection to Redis was lost")
        return inbox

    async def _connect(self) -> None:
        try:
            subscriber = await Subscriber.connect(self.url)
        except Lost as error:
            raise Unavailable(str(error)) from None
        self._subscriber = subscriber
        self._pong = time.monotonic()
        self._tasks = [
            self.loop.create_task(self._read(subscriber)),
            self.loop.create_task(self._ping(subscriber)),
        ]

    def leave(self, inbox: Inbox) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._leave(inbox)
            return
        try:  # a finalizer in another thread: the hub's state belongs to its loop
            self.loop.call_soon_threadsafe(self._leave, inbox)
        except RuntimeError:
            pass

    def _leave(self, inbox: Inbox) -> None:
        gone = []
        for name in inbox.channels:
            listeners = self._listeners.get(name)
            if listeners is None:
                continue
            listeners.discard(inbox)
            if not listeners:
                del self._listeners[name]
                gone.append(name)
        if gone and self._subscriber is not None:
            try:
                self._subscriber.send("UNSUBSCRIBE", *gone)
            except Lost as error:
                self._lost(error)

    async def _read(self, subscriber: Subscriber) -> None:
        try:
            while True:
                reply = await subscriber.read()
                if not isinstance(reply, list) or len(reply) < 2:
                    if isinstance(reply, Exception):
                        raise Lost(f"Redis answered with an error: {reply}")
                    continue
                kind = reply[0]
                if kind == b"message" and len(reply) == 3:
                    name, data = reply[1].decode(), reply[2].decode()
                    for inbox in self._listeners.get(name, ()):
                        inbox.put((name, data))
                elif kind == b"subscribe":
                    waiting = self._confirmations.pop(reply[1].decode(), None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(True)
                elif kind == b"pong":
                    self._pong = time.monotonic()
        except Lost as error:
            if self._subscriber is subscriber:
                self._lost(error)
        except asyncio.CancelledError:
            pass

    async def _ping(self, subscriber: Subscriber) -> None:
        """A connection that stopped answering (no RST, a dead network) counts as lost."""
        try:
            while True:
                await asyncio.sleep(PING_SECONDS)
                if time.monotonic() - self._pong > 2.5 * PING_SECONDS:
                    raise Lost("Redis stopped answering")
                subscriber.send("PING")
        except Lost as error:
            if self._subscriber is subscriber:
                self._lost(error)
        except asyncio.CancelledError:
            pass

    def _lost(self, error: Exception) -> None:
        """End every stream of this process: their pages poll, then reconnect."""
        subscriber, self._subscriber = self._subscriber, None
        if subscriber is not None:
            subscriber.close()
        current = asyncio.current_task(self.loop) if self.loop.is_running() else None
        for task in self._tasks:
            if task is not current:
                task.cancel()
        self._tasks = []
        for waiting in self._confirmations.values():
            if not waiting.done():
                waiting.set_exception(Lost(str(error)))
        self._confirmations.clear()
        inboxes = {inbox for listeners in self._listeners.values() for inbox in listeners}
        self._listeners.clear()
        for inbox in inboxes:
            inbox.closed = True  # nothing to unsubscribe: the connection is gone
            inbox.queue.put_nowait(END)
        logger.warning(
            "live updates: lost Redis (%s); %d streams end, their pages poll until it is back",
            error,
            len(inboxes),
        )

    def channels(self) -> list[str]:
        return list(self._listeners)

    def count(self) -> int:
        return len({inbox for listeners in self._listeners.values() for inbox in listeners})


# -- which hub, and publishing -------------------------------------------------------

_local = LocalHub()
_redis_hubs: dict[object, RedisHub] = {}
_hubs_lock = threading.Lock()


def current():
    """The hub that serves the streams of the running event loop."""
    url = channels.live_redis_url()
    if not url:
        return _local
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        for old in [known for known in _redis_hubs if known.is_closed()]:
            del _redis_hubs[old]
        hub = _redis_hubs.get(loop)
        if hub is None or hub.url != url:
            hub = _redis_hubs[loop] = RedisHub(url)
        return hub


def local() -> LocalHub:
    return _local


def remember(name: str, data: str) -> None:
    """What a new stream read first on ``name``, for ``live.keeper`` to compare changes
    with: only the in-process hub compares (through Redis every change is published)."""
    serving = current()
    if isinstance(serving, LocalHub):
        serving.remember(name, data)


def open_streams() -> int:
    """How many streams this process serves (all event loops)."""
    with _hubs_lock:
        hubs = list(_redis_hubs.values())
    return _local.count() + sum(hub.count() for hub in hubs)


_publishers: dict[str, redis.Redis] = {}
_down_until = 0.0
_state_lock = threading.Lock()


def client(url: str) -> redis.Redis:
    """The process's client for commands (publishing, the stream counts)."""
    found = _publishers.get(url)
    if found is None:
        # Fast failure, one retry at once: a dead Redis must not hold up a move.
        found = _publishers[url] = redis.Redis.from_url(
            url,
            socket_connect_timeout=0.5,
            socket_timeout=0.5,
            retry=Retry(NoBackoff(), 1),
            health_check_interval=30,
        )
    return found


def publish(messages: list[tuple[str, str]]) -> bool:
    """Tell the streams of every app process (from any thread, after a commit).
    False if Redis failed: logged; the pages find the change by their poll."""
    global _down_until
    url = channels.live_redis_url()
    if not url:
        _local.publish(messages)
        return True
    if time.monotonic() < _down_until:
        return False
    try:
        pipe = client(url).pipeline(transaction=False)
        for name, data in messages:
            pipe.publish(name, data)
        pipe.execute()
    except (redis.RedisError, OSError) as error:
        with _state_lock:
            _down_until = time.monotonic() + RETRY_AFTER
        logger.warning("live updates: cannot publish to Redis, pages will poll: %s", error)
        return False
    return True


def reset() -> None:
    """Forget a failed publish (tests; a restarted Redis is retried anyway)."""
    global _down_until
    _down_until = 0.0
    for old in _publishers.values():
        old.close()
    _publishers.clear()
