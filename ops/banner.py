"""What the staff banner says: the worker or beat not seen for HEARTBEAT_STALE_SECONDS,
or an outbox channel whose oldest due row is older than OUTBOX_STALE_SECONDS.

Asked on every page a staff member sees, so it is kept in the cache for a few seconds:
a handful of staff cost two queries every ``BANNER_CACHE_SECONDS``, players none.
"""

from __future__ import annotations

from django.core.cache import cache

from . import checks

CACHE_KEY = "ops:banner"
CACHE_SECONDS = 15


def trouble() -> list[dict]:
    found = cache.get(CACHE_KEY)
    if found is None:
        found = _read()
        cache.set(CACHE_KEY, found, CACHE_SECONDS)
    return found


def _minutes(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds // 60)


def _read() -> list[dict]:
    """Plain data (the page translates it): what is wrong, and for how many minutes."""
    found = []
    for name, result in checks.trouble().items():
        if name == "outbox":
            for channel, state in result.get("channels", {}).items():
                age = state["oldest_due_age_seconds"]
                if age is not None and age > result["stale_after_seconds"]:
                    found.append({"what": "outbox", "channel": channel, "minutes": _minutes(age)})
            if "error" in result:
                found.append({"what": "outbox", "channel": None, "minutes": None})
        else:
            found.append({"what": name, "minutes": _minutes(result.get("age_seconds"))})
    return found


def forget() -> None:
    cache.delete(CACHE_KEY)
