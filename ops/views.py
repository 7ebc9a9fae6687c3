"""The probes and the scrape: /healthz, /readyz, /metrics.

None of them reads the session or sets a cookie, and none is a form (no CSRF): they
are read by load balancers, container health checks and Prometheus.
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST

from . import checks, metrics


def quiet(view):
    """A probe: the log context does not load the user for it (``ops.middleware``)."""
    view.quiet = True
    return view


@quiet
@never_cache
@require_safe
def healthz(request):
    """The process answers: nothing else is asked (no database, no cache)."""
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


@quiet
@never_cache
@require_safe
def readyz(request):
    """Whether this process can serve (and the site's workers work): 200 or 503."""
    answer = checks.readiness()
    return JsonResponse(answer, status=200 if answer["ready"] else 503)


def _authorized(request) -> bool:
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {settings.METRICS_TOKEN}"
    return hmac.compare_digest(given.encode(), expected.encode())


@quiet
@never_cache
@require_safe
def scrape(request):
    """Prometheus exposition; not there without METRICS_TOKEN, the token required."""
    if not settings.METRICS_TOKEN:
        raise Http404
    if not _authorized(request):
        response = HttpResponse("Unauthorized", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(metrics.exposition(), content_type=CONTENT_TYPE_LATEST)
