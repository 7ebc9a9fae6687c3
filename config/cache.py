"""A Redis cache that is an optimisation, never a dependency.

Every read and write the site makes through Django's cache (the game-state
cache, allauth's rate limits) goes through here. When Redis fails, a read is a
miss and a write is dropped: the site reads the database and carries on, and
a rate limit lets the request through. Each failure is counted and logged;
after one, Redis is left alone for ``RETRY_AFTER`` seconds, so an outage costs
one failed connection per few seconds, not one per cache call.

One Redis client per process: Django makes a cache object per thread, and
each would open its own connection pool; here they share one client (and so
one pool) per location and options. Nothing else in the site talks to Redis
directly (Celery's broker connections are kombu's own).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_AFTER = 5.0

# Failures since the process started, for operators (and tests) to read.
failures = 0
_lock = threading.Lock()
_down_until = 0.0


_clients: dict[tuple, object] = {}
_clients_lock = threading.Lock()


def _failed(operation: str, error: Exception) -> None:
    global failures, _down_until
    with _lock:
        failures += 1
        _down_until = time.monotonic() + RETRY_AFTER
    logger.warning("cache %s failed, carrying on without the cache: %s", operation, error)


def _available() -> bool:
    return time.monotonic() >= _down_until


def reset() -> None:
    """Forget an earlier failure (tests; a restarted Redis is retried anyway)."""
    global _down_until
    _down_until = 0.0


def _guard(default):
    def decorate(method):
        name = method.__name__

        def wrapper(self, *args, **kwargs):
            if not _available():
                return default(*args, **kwargs) if callable(default) else default
            try:
                return method(self, *args, **kwargs)
            except (RedisError, OSError) as error:
                _failed(name, error)
                return default(*args, **kwargs) if callable(default) else default

        wrapper.__name__ = name
        return wrapper

    return decorate


def _default_of_get(key, default=None, version=None):
    return default


def _all_keys_failed(keys, *args, **kwargs):
    return list(keys)


class _SharedClient(RedisCacheClient):
    """A client that threads share: its pools are made under a lock (Django's
    would let two threads each make one, and keep only the second)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pools_lock = threading.Lock()
        self._redis_clients = {}

    def _get_connection_pool(self, write):
        with self._pools_lock:
            return super()._get_connection_pool(write)

    def get_client(self, key=None, *, write=False):
        # Django builds a new redis.Redis for every call, and each build fills a
        # table of ~170 response callbacks (half a millisecond a page). One client
        # per pool does the same work: redis-py's clients are safe to share.
        pool = self._get_connection_pool(write)
        client = self._redis_clients.get(pool)
        if client is None:
            client = self._redis_clients[pool] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _SharedClient

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client

    @_guard(_default_of_get)
    def get(self, key, default=None, version=None):
        return super().get(key, default, version)

    # True: with Redis down nothing is held, so whoever asks "may I take this
    # lock?" (allauth's rate limiter does) may; answering False would lock
    # everyone out of signing in for the length of the outage.
    @_guard(True)
    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return super().add(key, value, timeout, version)

    @_guard(None)
    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return super().set(key, value, timeout, version)

    @_guard(False)
    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return super().touch(key, timeout, version)

    @_guard(False)
    def delete(self, key, version=None):
        return super().delete(key, version)

    @_guard({})
    def get_many(self, keys, version=None):
        return super().get_many(keys, version)

    @_guard(False)
    def has_key(self, key, version=None):
        return super().has_key(key, version)

    @_guard(_all_keys_failed)
    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return super().set_many(data, timeout, version)

    @_guard(None)
    def delete_many(self, keys, version=None):
        return super().delete_many(keys, version)

    @_guard(False)
    def clear(self):
        return super().clear()

    def incr(self, key, delta=1, version=None):
        # Django's contract: ValueError for a missing key. With Redis down
        # every key is missing.
        if not _available():
            raise ValueError(f"Key '{key}' not found (cache unavailable)")
        try:
            return super().incr(key, delta, version)
        except (RedisError, OSError) as error:
            _failed("incr", error)
            raise ValueError(f"Key '{key}' not found (cache unavailable)") from None
