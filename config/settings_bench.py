"""Settings for the load benchmark (``bench/site_load.py``) only: never in production.

The normal settings plus two views that give the benchmark its yardsticks, on URLs that
exist only here (this module is its own ROOT_URLCONF; ``config.urls`` is unchanged):

- ``GET /bench/trivial``: the cheapest page a signed-in user can get through the same
  middleware (session, user, CSRF, locale, security headers);
- ``POST /bench/insert``: a signed-in, CSRF-checked POST that does one INSERT.

Page figures are printed as ratios to these.
"""

from __future__ import annotations

import os
from typing import Any

from .settings import *  # noqa: F403

ROOT_URLCONF = "config.settings_bench"

# bench/live.py: when each change was committed (games.signals.changed, sent right after
# the commit), one line per change: "game version chat_count unix-time". It compares
# these with the times its streams received the events. (games.signals imports nothing
# of the site, so it may be imported with the settings.)
if os.environ.get("BENCH_COMMIT_LOG"):
    import time as _time

    from games import signals as _signals

    def _log_commit(sender, game_id, version, chat_count, **kwargs):
        with open(os.environ["BENCH_COMMIT_LOG"], "a") as log:
            log.write(f"{game_id} {version} {chat_count} {_time.time():.6f}\n")

    _signals.changed.connect(_log_commit, weak=False, dispatch_uid="bench-commit-log")
# The benchmark collects the static files (DEBUG off) into a directory of its own.
if os.environ.get("BENCH_STATIC_ROOT"):
    STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]


def _trivial(request: Any) -> Any:
    from django.http import HttpResponse

    return HttpResponse(f"ok {request.user.pk}", content_type="text/plain")


def _insert(request: Any) -> Any:
    import secrets

    from django.http import HttpResponse

    from games.models import Game, Receipt

    game = Game.objects.only("pk").get(pk=request.POST["game"])
    Receipt.objects.create(game=game, user=request.user, request_id=secrets.token_hex(16))
    return HttpResponse("inserted", content_type="text/plain")


def __getattr__(name: str) -> Any:
    # The URL patterns import views (and so models), which settings must not do at import
    # time: the resolver asks for them only once Django is set up.
    if name != "urlpatterns":
        raise AttributeError(name)
    from django.contrib.auth.decorators import login_required
    from django.urls import include, path
    from django.views.decorators.http import require_GET, require_POST

    patterns = [
        path("bench/trivial", require_GET(login_required(_trivial)), name="bench_trivial"),
        path("bench/insert", require_POST(login_required(_insert)), name="bench_insert"),
        path("", include("config.urls")),
    ]
    globals()["urlpatterns"] = patterns
    return patterns
