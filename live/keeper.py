"""The live hub's background work in each app process, one thread doing little:

- every second, the stream counts in Redis (``live.caps``): places of ended streams
  removed, and every 30 s the places of open streams extended;
- every minute, ``Seat.last_seen`` of each player who has their game open on a stream,
  in one statement (the 4-second poll wrote it before; the "your turn" mail waits while
  a player looks at the game, ``notify.compose``), and their own ``last_seen`` (the
  online dot beside their name) unless they hide it;
- without Redis, every two seconds: the versions of the games watched here and the
  badges of the players watched here, compared with what their streams were told, so
  that changes made in another process (the Celery worker beside ``make run``, a
  management command) reach the pages too.

It holds no database connection between rounds. Started by the first stream of a
process (``LIVE_KEEPER``: off in the tests, which call ``run_once``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.utils import timezone

from games import lists, presence
from games.models import Game, Seat

from . import caps, channels, hub

logger = logging.getLogger(__name__)

LOCAL_CHECK_SECONDS = 2.0
PRESENCE_CHUNK = 500  # seats per UPDATE

_lock = threading.Lock()
_watching: Counter[tuple[int, int]] = Counter()  # (game, user) of open streams of players
_thread: threading.Thread | None = None
_badges: dict[int, int] = {}  # without Redis: the badge each watched player was last told


def watch(game_id: int, user_id: int) -> None:
    with _lock:
        _watching[(game_id, user_id)] += 1


def unwatch(game_id: int, user_id: int) -> None:
    with _lock:
        _watching[(game_id, user_id)] -= 1
        if _watching[(game_id, user_id)] <= 0:
            del _watching[(game_id, user_id)]


def ensure_running() -> None:
    global _thread
    if not settings.LIVE_KEEPER:
        return
    with _lock:
        if _thread is not None and _thread.is_alive():
            return
        _thread = threading.Thread(target=_run, name="live-keeper", daemon=True)
        _thread.start()


def _run() -> None:
    rounds = 0
    while True:
        time.sleep(1.0)
        rounds += 1
        try:
            run_once(
                refresh=rounds % caps.REFRESH_SECONDS == 0,
                presence_due=rounds % presence.THROTTLE_SECONDS == 0,
                local_due=rounds % int(LOCAL_CHECK_SECONDS) == 0,
            )
        except Exception:  # the next round tries again; a stream never depends on one
            logger.exception("live updates: the keeper's round failed")


def run_once(refresh: bool = True, presence_due: bool = True, local_due: bool = True) -> None:
    caps.sync_with_redis(refresh)
    used_database = False
    if presence_due:
        used_database |= write_presence()
    if local_due and not channels.live_redis_url():
        used_database |= check_local()
    if used_database:
        connection.close()  # no connection held between rounds


def write_presence() -> bool:
    """Mark every player with their game open on a stream as present, a statement per
    ``PRESENCE_CHUNK`` of them."""
    with _lock:
        pairs = list(_watching)
    if not pairs:
        return False
    close_old_connections()
    now = timezone.now()
    table = Seat._meta.db_table
    for start in range(0, len(pairs), PRESENCE_CHUNK):
        chunk = pairs[start : start + PRESENCE_CHUNK]
        # Row values (PostgreSQL, SQLite 3.15+): an OR of a Q per seat cost 60 ms of
        # the keeper's CPU per 500 seats to build, holding the event loop's GIL.
        rows = ", ".join(["(%s, %s)"] * len(chunk))
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET last_seen = %s WHERE NOT vacated"  # a seat held (Seat.objects)
                f" AND (game_id, user_id) IN (VALUES {rows})",
                [now, *(value for pair in chunk for value in pair)],
            )
    # The online dot beside their name too: a page open on a stream makes no requests.
    watchers = {user for _game, user in pairs}
    get_user_model().objects.filter(pk__in=watchers, show_online=True).update(last_seen=now)
    return True


def check_local() -> bool:
    """Without Redis: tell this process's streams of changes made by other processes."""
    local = hub.local()
    names = local.channels()
    game_prefix, user_prefix = channels.game_channel(""), channels.user_channel("")
    games = {int(n[len(game_prefix) :]): n for n in names if n.startswith(game_prefix)}
    users = {int(n[len(user_prefix) :]): n for n in names if n.startswith(user_prefix)}
    if not games and not users:
        _badges.clear()
        return False
    close_old_connections()
    messages = []
    for pk, version, chat_count in Game.objects.filter(pk__in=games).values_list(
        "pk", "version", "chat_count"
    ):
        data = channels.GameState(version, chat_count).wire
        told = local.told(games[pk])
        if told is None:
            local.remember(games[pk], data)
        elif told != data:
            messages.append((games[pk], data))
    for user_id in list(_badges):
        if user_id not in users:
            del _badges[user_id]
    for user_id, count in badges_of(list(users)).items():
        if _badges.get(user_id, count) != count:
            messages.append((users[user_id], channels.BADGE))
        _badges[user_id] = count
    if messages:
        local.publish(messages)
    return True


def badges_of(user_ids: list[int]) -> dict[int, int]:
    """Each player's badge (``games.lists.waiting_count``), all in one query: the
    badge's SQL with the player as a column instead of a parameter."""
    if not user_ids:
        return {}
    parts = [sql.replace("%(badge_user)s", "u.id") for sql in lists.badge_counts()]
    params = {k: v for k, v in lists.badge_params(None).items() if k != "badge_user"}
    names = []
    for number, user_id in enumerate(user_ids):
        params[f"live_user_{number}"] = user_id
        names.append(f"%(live_user_{number})s")
    table = get_user_model()._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT u.id, {' + '.join(parts)} FROM {table} u WHERE u.id IN ({', '.join(names)})",
            params,
        )
        return dict(cursor.fetchall())
