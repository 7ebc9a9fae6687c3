"""Per request: its id and log context, its metrics, and the staff banner."""

from __future__ import annotations

import time

from django.template.loader import render_to_string

from . import banner, logcontext, metrics

UNMATCHED = "unmatched"  # no route: a 404 of the resolver, or a middleware's own answer


class Observe:
    """Gives the request an id (the proxy's ``X-Request-ID`` if it sent a sane one, else
    a new one; echoed in the answer), sets the log context (``ops.logcontext``) and
    counts the request by route name and status, with its latency.

    Route names, never paths: a label per game id or user name would grow without end.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        began = time.perf_counter()
        request_id = logcontext.request_id_from(request.headers.get("X-Request-ID"))
        token = logcontext.begin(request_id)
        try:
            response = self.get_response(request)
        finally:
            logcontext.end(token)
        match = getattr(request, "resolver_match", None)
        route = (match.view_name if match else None) or UNMATCHED
        metrics.REQUESTS.labels(route=route, status=str(response.status_code)).inc()
        metrics.LATENCY.labels(route=route).observe(time.perf_counter() - began)
        response["X-Request-ID"] = request_id
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        route = request.resolver_match.view_name if request.resolver_match else None
        game_id = view_kwargs.get("game_id")
        logcontext.update(route=route, game_id=game_id)
        # Probes (/healthz, /readyz, /metrics) touch no session: they read no user.
        if not getattr(view_func, "quiet", False):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                logcontext.update(user_id=user.pk)


class StaffBanner:
    """Puts the banner of ``ops.banner`` at the top of every HTML page a staff member is
    shown (the site's and the admin's), while the worker, beat or outbox is in trouble.

    Inserted into the finished page rather than drawn by the templates, so that the game
    pages kept whole in the page cache (``games.pagecache``) show it as it is now.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.streaming
            or not response.get("Content-Type", "").startswith("text/html")
            or response.has_header("Content-Encoding")
        ):
            return response
        user = getattr(request, "user", None)
        if user is None or not user.is_staff:  # no query for players: the user is loaded
            return response
        found = banner.trouble()
        if not found:
            return response
        content = response.content
        body = content.find(b"<body")
        if body < 0:  # a fragment (htmx): its page has the banner
            return response
        after = content.find(b">", body) + 1
        html = render_to_string("ops/_banner.html", {"trouble": found}, request=request)
        response.content = content[:after] + html.encode() + content[after:]
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response
