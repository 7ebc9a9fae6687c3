"""The game page's costly parts, rendered once per position and viewer.

A game is read far more often than it is written: the same few people reload
and poll a position that has not changed. The board and the log (most of the
page's rendering time and bytes) are kept in Django's cache as finished HTML.

The key names everything the fragment is drawn from:

- the release: the templates, code, translations and static files that draw it
  (``games.release``), so a deploy never serves last release's HTML;
- the part; the game (its id and creation time), its ``version`` (bumped by
  every move, take-back, join, substitute, time-out and end, so a new position
  is a new key) and status;
- the viewer's **seat**, or ``spectator`` for everyone without one (signed in
  or not: they are all shown ``engine.view(state, None)``). A fragment is only
  ever built from the view of the seat in its key, so no seat is ever served
  another seat's secrets (Tal's plans and bids, King of Siam's hand);
- the language (every label is translated at render time);
- the position shown (``at``) and whether it is a past one;
- what "since you last looked" marks (the move count the viewer last saw);
- the players' names as drawn (a renamed user or a substitute);
- the query parameters that change the drawing (Tal's chosen figure ``fig``,
  building position ``slot``, the text board ``text``; the full log ``log``).

What differs between two requests for the same key stays out of the cached
HTML: the CSRF token and the click's request id are rendered as placeholders
and put in on the way out. Everything else per user or per request (chat,
the header with the clock, "since you last looked" banner, notices, errors,
the take-back button) is rendered outside the fragments, every time.

Anything a board template or the log comes to show that is not drawn from
the viewer's ``engine.view`` and the names above must join the key, or be
rendered outside ``{% fragment %}``.

The cache is an optimisation, never a dependency: a failing cache is a miss
and the fragment is rendered as before.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re

from django.core.cache import cache
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from . import release

logger = logging.getLogger(__name__)

# The query parameters a fragment's drawing reads (see tal.template_globals and log_window).
DRAWING_PARAMS = ("fig", "slot", "text", "log")
TIMEOUT = 60 * 60  # an old position's fragments are rarely asked for again

# Rendered in place of the per-request values, replaced on the way out. No
# template or engine text contains them (a user's text that did would only
# show the viewer their own token).
CSRF_MARK = "\x1bcsrf\x1b"
REQUEST_ID_MARK = "\x1brequest-id\x1b"


def key(part: str, context) -> str:
    """The cache key of ``part`` of the page in ``context`` (see the module docstring)."""
    page = context["page"]
    game = page.game
    request = context.get("request")
    query = request.GET if request is not None else {}
    since = page.since
    named = {
        "game": [game.kind, game.rules_version, str(game.created_at)],
        "status": game.status,
        "seat": "spectator" if page.viewer is None else page.viewer,
        "lang": translation.get_language(),
        "at": page.at,
        "history": page.history,
        "since": since.moves if since is not None else None,
        "names": sorted(page.player_names.items()),
        "query": [query.get(name) for name in DRAWING_PARAMS],
    }
    digest = hashlib.sha256(json.dumps(named, default=str).encode()).hexdigest()[:32]
    position = f"{game.version}.{game.secret_steps}"  # a secret step is a new position
    return f"fragment:{release.digest()}:{part}:{game.pk}:{position}:{digest}"


def render(part: str, context, render_part) -> SafeString:
    """``render_part(context)`` for this page, from the cache when it was rendered before,
    in an element of its own (``#part-<name>``).

    The digest of what was drawn goes to ``page.fragment_digests``; the poller
    sends it back. When the browser already shows exactly this (``kept_parts``),
    the answer is an empty element that htmx fills with the one it has
    (``hx-preserve``): a refresh after a move the viewer cannot see (another
    seat's secret plan) does not send the board again.
    """
    page = context["page"]
    fragment_key = key(part, context)
    html = read(fragment_key)
    if html is None:
        with context.push(csrf_token=CSRF_MARK):
            html = str(render_part(context))
        # The click's id is new on every page: keep it out of what is shared.
        html = html.replace(page.request_id, REQUEST_ID_MARK)
        keep(fragment_key, html)
    digest = hashlib.sha256(html.encode()).hexdigest()[:DIGEST_LENGTH]
    page.fragment_digests[part] = digest
    if (context.get("kept_parts") or {}).get(part) == digest:
        return mark_safe(f'<div id="part-{part}" class="part" hx-preserve="true"></div>')
    return mark_safe(f'<div id="part-{part}" class="part">{_personal(html, context)}</div>')


DIGEST_LENGTH = 16
KEPT = re.compile(f"[0-9a-f]{{{DIGEST_LENGTH}}}")


def kept_parts(param: str) -> dict[str, str]:
    """The parts a poller's page shows, from the ``k`` it sends back
    (``board.log`` digests; anything malformed counts as nothing kept)."""
    board, _, log = param.partition(".")
    return {part: d for part, d in (("board", board), ("log", log)) if KEPT.fullmatch(d)}


def kept_param(digests: dict[str, str]) -> str:
    """What the poller sends back: the digests of the parts the page shows
    (``page.fragment_digests``, or what ``kept_parts`` read from the last poll)."""
    return f"{digests.get('board', '')}.{digests.get('log', '')}"


def _personal(html: str, context) -> str:
    if CSRF_MARK in html:  # asking for the token sets the cookie: only when a form needs it
        token = context.get("csrf_token")
        html = html.replace(CSRF_MARK, str(token) if token else "")
    return html.replace(REQUEST_ID_MARK, context["page"].request_id)


def read(key: str) -> str | None:
    """Rendered HTML kept under ``key`` (here and in games.pagecache), or None."""
    try:
        return cache.get(key)
    except Exception:  # any backend: a cache that fails is a miss
        logger.warning("render cache read failed", exc_info=True)
        return None


def keep(key: str, html: str) -> None:
    try:
        cache.set(key, html, TIMEOUT)
    except Exception:  # the page is rendered already; losing the copy costs nothing
        logger.warning("render cache write failed", exc_info=True)
