"""The whole page of a game, running or over, kept per viewer and per everything it shows.

Players reload and revisit a position far more often than it changes. A reload
of an unchanged page should cost what it costs to learn that nothing changed:
the game row, one query for its seats and a few counts, then a cache hit.
Rendering the page (the board, the log, the header, the chat and the forms)
happens once per change.

The key is a digest of every input of the page, read fresh on each request:

- the release (``games.release``): a deploy that changes how a page is drawn
  changes every key; so does a change to what feature apps registered
  (``games.extend.generation``);
- the game's row, every column (its version moves with each move, take-back,
  join, time-out and end; ``chat_count`` with each chat line and each line a
  moderator hides);
- each seat's row, its player's row and the row of the player a computer
  stands in for (names, to-move marks, resignations, "since you last looked",
  vacations); ``Seat.last_seen`` is left out: it is written by the visits
  themselves and not shown;
- the viewer's own row (name, language, time zone, staff) or "anonymous";
- counted in the same query as the seats (``_query``): the parts of the menu's
  badge (the viewer's games waiting for them, their invitations and rematch offers),
  and what the feature apps' parts of the page read, as each app registered it
  (``games.extend.add_key_part``): the game's cancel votes, whether the viewer muted
  e-mail about the game, the players whose chat the viewer muted or blocked, whether the
  viewer learns in this game, which seats' players are online now (a bit per seat,
  against a time given as a parameter: the key changes when a player comes or goes, not
  with every minute), and on a finished game the rematch offer (its state, the game it
  started, its answers) and whether one may still be arranged. Rows that are only
  ever added or deleted, never changed, are covered by their count and highest id;
- the language, the time zone, the full path (``?at``, ``?log=all``,
  ``?chat=all`` and the board's own parameters), whether htmx asked, and the kind of
  server (ASGI or WSGI: a part may need one, as live streams need ASGI);
- what depends on the clock: the "time left" text as it would be drawn now,
  the minute while banks run (a game over draws none) and today's date (vacations
  end by date).

The CSRF token and the request id of the page's forms are kept as marks and
filled in for each request (see ``games.fragments``). Pages with a flash
message waiting are rendered, never cached: showing a message uses it up.
Finished and aborted games are cached like running ones: a game over is what
the archive, the profiles and the search link to. What they add is in the key
(the rematch, above) or the same for every page of the game and viewer (the
"Next game" links, the places the review and the private note are fetched into).
The waiting page of an open game is never cached.

Limit: a chat line's author who has since left the game (a substitute took the
seat) and then changes their display name keeps the old name on cached pages
until the next chat line or move.

With ``settings.PAGE_CACHE_CHECK`` (on in the tests), every hit is rendered
again and compared: a page input missing from the key fails the test that
shows it, anywhere in the suite.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
from collections.abc import Callable
from uuid import uuid4

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.timesince import timeuntil

from . import extend, facts, fragments, lists, release, since
from .clock.seats import clock_minute
from .fragments import CSRF_MARK, REQUEST_ID_MARK
from .models import Game, Seat
from .rows import planned_cursor

UNSHOWN = {"password", "last_login", "last_seen"}


class StalePage(AssertionError):
    """PAGE_CACHE_CHECK found a cached page that differs from a fresh render."""


def _row(obj) -> list:
    return [getattr(obj, f.attname) for f in obj._meta.concrete_fields if f.attname not in UNSHOWN]


def _columns(model, alias: str) -> list[str]:
    return [f"{alias}.{f.column}" for f in model._meta.concrete_fields if f.attname not in UNSHOWN]


def _query() -> tuple[str, int, int]:
    """Plain SQL, built once (for what is registered): compiling ORM queries would cost
    more than the rest of a hit. Also the number of counts that begin each row, and how
    many of them make the badge."""
    return _query_for(extend.generation())


@functools.cache
def _query_for(generation: int) -> tuple[str, int, int]:
    from django.contrib.auth import get_user_model

    user = get_user_model()
    seat, users = Seat._meta.db_table, user._meta.db_table
    columns = _columns(Seat, "s") + _columns(user, "u") + _columns(user, "t")
    # Uncorrelated subqueries are computed once per query, not per seat row.
    badge = list(lists.badge_counts())  # the menu's badge (lists.waiting_count)
    counts = badge + extend.key_parts()  # and what the feature apps' parts read
    sql = (
        f"SELECT {', '.join(counts + columns)} FROM {seat} s JOIN {users} u ON u.id = s.user_id"
        f" LEFT JOIN {users} t ON t.id = s.stood_in_for_id"
        f" WHERE s.game_id = %(game)s AND NOT s.vacated ORDER BY s.number, s.id"
    )
    return sql, len(counts), len(badge)


_SEAT_COLUMNS = [c.split(".")[1] for c in _columns(Seat, "s")]
_USER, _SEEN = (_SEAT_COLUMNS.index(name) for name in ("user_id", "seen_version"))


def _fetch(sql: str, params: dict) -> list[tuple]:
    with planned_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def page_key(request, game: Game) -> str | None:
    """The cache key of ``game``'s page as ``request`` would be shown it (module docstring).

    A player's first look at the game is recorded first (``since.first_look``),
    so the key names the page as it will be drawn.
    """
    user = request.user
    sql, counts, badge = _query()
    user_id = user.pk if user.is_authenticated else None
    params = {
        "user": user_id,
        "game": game.pk,
        **lists.badge_params(user_id),
        **extend.key_params(),
    }
    rows = _fetch(sql, params)
    if user.is_authenticated and any(
        r[counts + _USER] == user.pk and r[counts + _SEEN] is None for r in rows
    ):
        since.first_look(game, user)
        rows = _fetch(sql, params)
    if not rows:  # a game that was played has a player; without one, nothing is cached
        return None
    extras = list(rows[0][:counts])
    seats = [row[counts:] for row in rows]
    # The menu's badge: the context processor takes it from here on a miss; the parts
    # their facts (games.facts).
    request.my_turn_count = sum(extras[:badge])
    facts.remember(request, game.pk, extend.key_parts(), extras[badge:])
    named = {
        "game": _row(game),
        "seats": seats,
        "viewer": _row(user) if user.is_authenticated else "anonymous",
        "extras": extras,
        "lang": translation.get_language(),
        "tz": timezone.get_current_timezone_name(),
        "path": request.get_full_path(),
        "htmx": request.headers.get("HX-Request", ""),
        "server": type(request).__name__,  # ASGI or WSGI: live streams need ASGI
        "left": timeuntil(game.deadline) if game.deadline else "",
        # The banks are drawn as of the minute (the browser counts on from there).
        # (A game over draws no bank: its page is the same all day.)
        "minute": clock_minute().isoformat() if _banks_run(game) else "",
        "today": str(timezone.localdate()),
    }
    blob = json.dumps(named, default=str, sort_keys=True)
    digest = hashlib.sha256(blob.encode()).hexdigest()[:40]
    position = f"{game.version}.{game.secret_steps}"  # a secret step is a new position
    return f"page:{release.digest()}:{extend.generation()}:{game.pk}:{position}:{digest}"


# A game that was played: running, or over with its rematch, review and next game.
CACHED = (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABORTED)


def _banks_run(game: Game) -> bool:
    return game.bank_start is not None and game.status == Game.Status.ACTIVE


def serve(request, game: Game, render_page: Callable[[str | None], HttpResponse]):
    """The page ``render_page`` draws, from the cache while it is unchanged.

    ``render_page(csrf_token)`` renders the page with that CSRF token (None: the
    request's own) and sets the response's ``request_id`` to the page's click id.
    """
    if game.status not in CACHED or len(messages.get_messages(request)):
        since.first_look(game, request.user)
        return render_page(None)
    key = page_key(request, game)
    if key is None:
        return render_page(None)
    html = fragments.read(key)
    if html is not None and not settings.PAGE_CACHE_CHECK:
        return _personal(request, html)
    response = render_page(CSRF_MARK)
    if response.status_code != 200:
        return response
    fresh = response.content.decode().replace(response.request_id, REQUEST_ID_MARK)
    if html is not None and html != fresh:
        diff = "\n".join(difflib.unified_diff(html.splitlines(), fresh.splitlines(), lineterm=""))
        raise StalePage(f"the cached page of game {game.pk} differs from a fresh one:\n{diff}")
    fragments.keep(key, fresh)
    return _personal(request, fresh)


def _personal(request, html: str) -> HttpResponse:
    if CSRF_MARK in html:
        html = html.replace(CSRF_MARK, get_token(request))
    return HttpResponse(html.replace(REQUEST_ID_MARK, uuid4().hex))
