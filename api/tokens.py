"""Making, checking and revoking personal access tokens.

A token is ``pbw_`` and 43 random URL-safe letters (256 bits): shown to its person once,
stored as its sha256 only. A random secret of that length needs no slow hash: nobody
can guess one whose digest leaked, and checking it costs one indexed lookup.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .models import SCOPES, Token

PREFIX = "pbw_"
MAX_TOKENS = 20  # per person: enough for every program a player runs
LAST_USE_STEP = timedelta(minutes=1)  # "last used" is written at most once a minute
SCOPE_NAMES = tuple(name for name, _label in SCOPES)


class TokenError(Exception):
    pass


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def make(user, name: str, scopes) -> tuple[Token, str]:
    """A new token of ``user``'s and its secret (the only time anyone sees it)."""
    name = name.strip()
    chosen = [s for s in SCOPE_NAMES if s in set(scopes)]
    if not name or len(name) > 60:
        raise TokenError("name")
    if not chosen or set(scopes) - set(SCOPE_NAMES):
        raise TokenError("scopes")
    with transaction.atomic():
        # Locked: two forms sent at once do not make 21 tokens.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Token.objects.filter(user=user, revoked_at=None).count() >= MAX_TOKENS:
            raise TokenError("too_many")
        secret = PREFIX + secrets.token_urlsafe(32)
        token = Token.objects.create(
            user=user, name=name, scopes=" ".join(chosen), digest=digest(secret), hint=secret[:8]
        )
    return token, secret


def check(secret: str) -> Token | None:
    """The live token of an active person that ``secret`` is, or None."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    token = (
        Token.objects.select_related("user")
        .filter(digest=digest(secret), revoked_at=None, user__is_active=True)
        .first()
    )
    if token is not None:
        _note_use(token)
    return token


def _note_use(token: Token) -> None:
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USE_STEP:
        # Conditional: many requests in the same minute write once.
        Token.objects.filter(pk=token.pk, last_used_at=token.last_used_at).update(last_used_at=now)
        token.last_used_at = now


def revoke(user, token_id) -> bool:
    """Refused from the next request on. False: no live token of ``user``'s by that id."""
    return bool(
        Token.objects.filter(pk=token_id, user=user, revoked_at=None).update(
            revoked_at=timezone.now()
        )
    )


def live_tokens(user):
    return Token.objects.filter(user=user, revoked_at=None)
