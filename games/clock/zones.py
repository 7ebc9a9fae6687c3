"""A player's time zone as the clock (weekends off) and every other part reads it: the
zone they chose, or UTC for none or a name this system does not know."""

from __future__ import annotations

import zoneinfo

UTC = zoneinfo.ZoneInfo("UTC")


def named(name: str | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def of(user) -> zoneinfo.ZoneInfo:
    """``user``'s zone (``User.time_zone``)."""
    return named(getattr(user, "time_zone", "") or "")
