"""When an e-mail may go out: quiet hours and the daily digest, in the user's time zone."""

from __future__ import annotations

import datetime

from django.utils import timezone

from games.clock import zones


def quiet_end(user, when: datetime.datetime) -> datetime.datetime | None:
    """When the quiet hours around ``when`` end, or None if ``when`` is not in them."""
    start, end = user.quiet_from, user.quiet_until
    if start is None or end is None or start == end:
        return None
    zone = zones.of(user)
    local = when.astimezone(zone)
    t = local.time().replace(tzinfo=None)
    if start < end:
        quiet = start <= t < end
        end_date = local.date()
    else:  # the hours wrap past midnight (22:00–07:00)
        quiet = t >= start or t < end
        end_date = local.date() + datetime.timedelta(days=1) if t >= start else local.date()
    if not quiet:
        return None
    return datetime.datetime.combine(end_date, end, tzinfo=zone)


def send_time(user, when: datetime.datetime | None = None) -> datetime.datetime:
    """``when`` (now), or the end of the user's quiet hours if it falls in them."""
    when = when or timezone.now()
    return quiet_end(user, when) or when


def next_digest(user, when: datetime.datetime | None = None) -> datetime.datetime:
    """The next time (at or after ``when``) the user's daily digest goes out."""
    when = when or timezone.now()
    zone = zones.of(user)
    local = when.astimezone(zone)
    at = datetime.datetime.combine(local.date(), datetime.time(user.digest_hour), tzinfo=zone)
    if at < local:
        at = datetime.datetime.combine(
            local.date() + datetime.timedelta(days=1), datetime.time(user.digest_hour), tzinfo=zone
        )
    return at
