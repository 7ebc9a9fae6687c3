"""One-click sign-in links in turn mails and pushes, for players who allow them.

A link is signed (``TimestampSigner``: it cannot be made or altered without the
site's key), bound to one user and one game (it signs in that user and opens that
game, nothing else), short-lived (``SIGNIN_LINK_DAYS``), used once (its nonce is
recorded when used; a unique constraint makes the second use fail even when two
requests race) and refused after a password change (it carries a fingerprint of
the password hash it was made under). A link that fails any of these opens the
normal sign-in page, which then goes on to the game.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from .models import UsedSignInLink

SALT = "notify.signin"


def max_age() -> datetime.timedelta:
    return datetime.timedelta(days=settings.SIGNIN_LINK_DAYS)


def _fingerprint(user) -> str:
    # Changes with the password hash: a new password voids every link made before.
    return salted_hmac(SALT, user.password, algorithm="sha256").hexdigest()[:20]


def token(user, game) -> str:
    data = {"u": user.pk, "g": game.pk, "p": _fingerprint(user), "n": secrets.token_urlsafe(16)}
    return signing.TimestampSigner(salt=SALT).sign_object(data, compress=True)


def url(user, game) -> str:
    """The game's address for ``user``: a sign-in link if they allowed them."""
    if not getattr(user, "signin_links", False):
        return settings.SITE_URL + game.get_absolute_url()
    return settings.SITE_URL + reverse("signin_link", args=[token(user, game)])


def read(value: str) -> dict | None:
    """The link's data if it is genuine and young enough (not yet whether it was used)."""
    try:
        data = signing.TimestampSigner(salt=SALT).unsign_object(value, max_age=max_age())
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(data, dict) or not all(k in data for k in "ugpn"):
        return None
    return data


def game_of(value: str) -> int | None:
    """The game a genuine link is about, even when it can no longer sign in."""
    try:
        data = signing.TimestampSigner(salt=SALT).unsign_object(value)
    except (signing.BadSignature, ValueError):
        return None
    return data.get("g") if isinstance(data, dict) and isinstance(data.get("g"), int) else None


def redeem(value: str):
    """The user the link signs in, once; None if it is forged, old, used or void."""
    data = read(value)
    if data is None:
        return None
    user = get_user_model().objects.filter(pk=data["u"], is_active=True).first()
    if user is None or not constant_time_compare(str(data["p"]), _fingerprint(user)):
        return None
    try:
        with transaction.atomic():
            UsedSignInLink.objects.create(nonce=str(data["n"])[:40])
    except IntegrityError:
        return None  # used before
    return user


def prune(now: datetime.datetime | None = None) -> int:
    """Forget nonces of links that have expired anyway."""
    now = now or timezone.now()
    old = UsedSignInLink.objects.filter(used_at__lt=now - max_age() - datetime.timedelta(days=1))
    return old.delete()[0]
