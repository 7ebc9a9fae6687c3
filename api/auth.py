"""``Authorization: Bearer <token>``: who calls, what the token may do, and how often.

The token's person becomes ``request.user`` for the request, so every function the
API calls (the visibility gate, ``games.play``) sees them as the page sees a
signed-in player; a session cookie sent along counts for nothing.
"""

from __future__ import annotations

from allauth.core.internal import ratelimit
from django.conf import settings
from ninja.security import HttpBearer

from . import tokens
from .errors import ApiError


class TokenAuth(HttpBearer):
    def authenticate(self, request, token: str):
        found = tokens.check(token)
        if found is None:
            return None
        request.user = found.user
        request.api_token = found
        _count(request, found)
        return found


def _count(request, token) -> None:
    """The project's rate limiter (allauth's, in the cache), per token, every method
    counted. With the cache down nothing is counted (``config.cache``)."""
    rate = f"{settings.API_RATE_LIMIT}/key"
    allowed = ratelimit.consume(
        request,
        app="api",
        action="request",
        config={"request": rate},
        key=str(token.pk),
        limit_get=True,
    )
    if not allowed:
        raise ApiError(429, "rate_limited", "Too many requests with this token; wait a minute.")


def need(request, scope: str) -> None:
    if scope not in request.api_token.scope_set:
        raise ApiError(403, "missing_scope", f"This token lacks the '{scope}' scope.")
