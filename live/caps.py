"""A cap on open streams per player (per client address for anonymous viewers),
across every app process when Redis is there, per process without it.

A stream over the cap is refused (429) and its page polls as before. The cap also
keeps a browser that speaks HTTP/1.1 to the site (``make run``, no proxy) from
spending all of its six connections per host on streams. With Redis, each stream is
a member of a sorted set per player whose score is the time it expires: streams
refresh theirs (``live.keeper``, every 30 s), so a process that died without saying
goodbye frees its players' places within ``TTL`` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

from django.conf import settings

from . import channels, hub

logger = logging.getLogger(__name__)

TTL = 90  # seconds a stream's place is held without a refresh
REFRESH_SECONDS = 30

# KEYS[1]: the player's set. ARGV: now, expiry, cap, stream id, TTL.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

_lock = threading.Lock()
_local: Counter[str] = Counter()  # without Redis: open streams per key in this process
_held: dict[str, str] = {}  # stream id -> key, the places this process holds


def limit() -> int:
    return settings.LIVE_STREAMS_PER_USER


def key_of(request) -> str:
    user = request.user
    if user.is_authenticated:
        return f"user:{user.pk}"
    return f"address:{client_address(request)}"


def client_address(request) -> str:
    """The client's address as the sign-in rate limits count it (behind trusted proxies)."""
    header = settings.ALLAUTH_TRUSTED_CLIENT_IP_HEADER
    if header:
        value = request.headers.get(header, "").strip()
        if value:
            return value
    proxies = settings.ALLAUTH_TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [a.strip() for a in request.headers.get("X-Forwarded-For", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


def _set_name(key: str) -> str:
    return f"{channels.prefix()}streams:{key}"


def take(key: str, stream: str) -> bool:
    """A place for ``stream`` under ``key``'s cap, or False. Raises hub.Unavailable
    when Redis cannot say."""
    cap = limit()
    url = channels.live_redis_url()
    if not url:
        with _lock:
            if cap and _local[key] >= cap:
                return False
            _local[key] += 1
            _held[stream] = key
        return True
    now = time.time()
    try:
        client = hub.client(url)
        taken = client.eval(_TAKE, 1, _set_name(key), now, now + TTL, cap or 10**9, stream, TTL)
    except Exception as error:  # redis.RedisError, OSError: Redis is down
        raise hub.Unavailable(f"cannot count streams in Redis: {error}") from None
    if taken:
        with _lock:
            _held[stream] = key
    return bool(taken)


def release(stream: str) -> None:
    """Give the place back (a stream ended). With Redis the keeper removes it soon;
    until then (or should that fail) it expires by itself."""
    with _lock:
        key = _held.pop(stream, None)
        if key is None:
            return
        if not channels.live_redis_url():
            _local[key] -= 1
            if _local[key] <= 0:
                del _local[key]
            return
        _released.append((key, stream))


_released: list[tuple[str, str]] = []


def sync_with_redis(refresh: bool) -> None:
    """Remove the places of ended streams, and (``refresh``) extend those still open."""
    url = channels.live_redis_url()
    if not url:
        return
    with _lock:
        gone, _released[:] = list(_released), []
        held = list(_held.items()) if refresh else []
    if not gone and not held:
        return
    try:
        pipe = hub.client(url).pipeline(transaction=False)
        for key, stream in gone:
            pipe.zrem(_set_name(key), stream)
        expiry = time.time() + TTL
        for stream, key in held:
            pipe.zadd(_set_name(key), {stream: expiry}, xx=True)
            pipe.expire(_set_name(key), TTL)
        pipe.execute()
    except Exception as error:  # Redis down: the places expire by themselves
        logger.warning("live updates: cannot update the stream counts in Redis: %s", error)


def reset() -> None:
    with _lock:
        _local.clear()
        _held.clear()
        _released.clear()
