"""The other player's local time: beside the name of a player who chose to show it
(``User.show_local_time``), a game's header says what time it is for them and whether it
falls in their quiet hours (18xx.games#3764: "is my opponent asleep?").

The header is part of the cached game page (``games.pagecache``): the players' rows
(time zone, quiet hours, the choice) are in its key already, and the minute it shows is
added by ``key_sql``, only for a game where a seated player shows their time, so other
games' pages are not drawn anew every minute.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.clock import zones
from notify import schedule


def header_mark(seat) -> str:
    """The time where the seat's player is, and their quiet hours if it falls in them."""
    user = seat.user
    if not user.show_local_time or user.is_bot:
        return ""
    now = timezone.now()
    local = now.astimezone(zones.of(user))
    shown = formats.time_format(local.time(), "TIME_FORMAT")
    quiet_end = schedule.quiet_end(user, now)
    if quiet_end is None:
        return format_html(
            ' <span class="local-time">{}</span>', _("local time %(time)s") % {"time": shown}
        )
    until = formats.time_format(quiet_end.time(), "TIME_FORMAT")
    return format_html(
        ' <span class="local-time quiet">{} · {}</span>',
        _("local time %(time)s") % {"time": shown},
        _("quiet hours until %(time)s") % {"time": until},
    )


def key_sql() -> str:
    """The minute of the clock, in the key of a game page whose header shows a player's
    local time; 0 (no change with the clock) for every other game."""
    from games.models import Seat

    quote = connection.ops.quote_name
    seats, users = quote(Seat._meta.db_table), quote(get_user_model()._meta.db_table)
    return (
        f"(SELECT CASE WHEN EXISTS (SELECT 1 FROM {seats} l1"
        f" JOIN {users} l2 ON l2.id = l1.user_id"
        f" WHERE l1.game_id = %(game)s AND NOT l1.vacated AND l2.show_local_time)"
        f" THEN %(accounts_local_minute)s ELSE 0 END)"
    )


def key_params() -> dict:
    return {"accounts_local_minute": int(timezone.now().timestamp() // 60)}
