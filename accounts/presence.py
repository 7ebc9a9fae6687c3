"""Who is online: a player seen on the site in the last few minutes.

Every signed-in request already loads the player's row, so the middleware
(``accounts.middleware``) sees when they were last recorded and writes the time
anew at most once a minute. A player who hides their presence (``show_online``
off) is not recorded at all, and nobody sees a dot beside their name.

Pages show presence as a dot beside names: in a game's header (``add_header_mark``),
in the lists of games (``add_name_mark``) and on the profile. A game page is cached
(``games.pagecache``): its key holds which of its seats' players are online now, a
number that changes only when one of them comes or goes, not each minute.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _

# Seen this recently: online. The middleware writes once a minute, the game page's
# poll (every 4 s) and any other page keep it fresh while the player is here.
ONLINE_WINDOW = datetime.timedelta(minutes=5)
THROTTLE = datetime.timedelta(seconds=60)


def record(user) -> None:
    """The signed-in ``user`` asked for a page now (throttled to once a minute)."""
    if not user.show_online or user.is_bot:
        return
    now = timezone.now()
    if user.last_seen is not None and now - user.last_seen < THROTTLE:
        return
    get_user_model().objects.filter(pk=user.pk).update(last_seen=now)
    user.last_seen = now


def online_since(now: datetime.datetime | None = None) -> datetime.datetime:
    return (now or timezone.now()) - ONLINE_WINDOW


def is_online(user, now: datetime.datetime | None = None) -> bool:
    seen = user.last_seen
    if seen is None or not user.show_online or user.is_bot:
        return False
    if timezone.is_naive(seen):  # SQLite's plain-SQL rows (games.rows)
        seen = timezone.make_aware(seen, datetime.UTC)
    return seen > online_since(now)


def dot() -> str:
    label = _("online now")
    return format_html(
        '<span class="online-dot" role="img" aria-label="{}" title="{}"></span>', label, label
    )


def header_mark(seat) -> str:
    """The dot beside a player's name in a game page's header."""
    return dot() if is_online(seat.user) else ""


def online_in(games: list) -> set[int]:
    """The players of ``games`` online now, from the seats and players the list read
    with them (no query)."""
    now = timezone.now()
    return {
        seat.user_id for game in games for seat in game.seats.all() if is_online(seat.user, now)
    }


def list_mark(online: set[int], user_id: int, kind: str) -> str:
    return dot() if user_id in online else ""


def key_sql() -> str:
    """Which seats of the game have a player online now, as one number (a bit per seat):
    the game page's key changes when a player comes or goes, not with every minute."""
    from games.models import Seat

    quote = connection.ops.quote_name
    seats, users = quote(Seat._meta.db_table), quote(get_user_model()._meta.db_table)
    return (
        f"(SELECT COALESCE(SUM(1 << p1.number), 0) FROM {seats} p1"
        f" JOIN {users} p2 ON p2.id = p1.user_id"
        f" WHERE p1.game_id = %(game)s AND NOT p1.vacated AND p1.number IS NOT NULL"
        f" AND p2.show_online AND p2.last_seen > %(accounts_online_since)s)"
    )


def key_params() -> dict:
    return {"accounts_online_since": online_since()}
