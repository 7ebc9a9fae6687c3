"""Failed sign-ins slow an attacker down and never lock the owner out.

A wrong password counts against three things (allauth's limiter keeps the first two,
``ACCOUNT_RATE_LIMITS``; this module keeps the third in the cache):

- the address: 10 failures a minute from one address, whatever the accounts
  (``login_failed``, per ``ip``);
- the account from this address: 5 failures in five minutes (``login_failed``, per
  ``key``, the key being the account *and* the address). Refusing here refuses only
  the address that failed, so nobody elsewhere can use it to shut the owner out;
- the account from everywhere: ``SIGNIN_BURST_FAILURES`` failures within
  ``SIGNIN_BURST_MINUTES`` make a *burst*. While a burst lasts (until
  ``BURST_CALM`` windows pass without a failure), an address may fail only twice
  against the account (``login_failed_in_burst``) instead of five times: an attacker
  with many addresses gets two guesses per address, and an address that has not
  failed, the owner's, still signs in with the right password. The owner gets one
  e-mail per burst (through the outbox, its key naming the burst).

A right password takes back its own attempt from the counts (allauth's rollback), so
signing in costs nothing. With the cache (Redis) down, nothing is counted and every
attempt is checked as usual, as allauth's limiter does.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from dataclasses import dataclass

from allauth.account.models import EmailAddress
from allauth.core.internal import ratelimit
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache

APP = "allauth.account"
# A burst is over after this many windows with no failure against the account: an
# attacker who pauses for a quarter of an hour does not make a second mail.
BURST_CALM = 4


class Refused(Exception):
    """Too many failures: this attempt is not checked."""


def address(request) -> str:
    """The client's address as the rate limits count it (an IPv6 network of /64)."""
    from allauth.account.adapter import get_adapter

    ip = get_adapter().get_client_ip(request)
    try:
        parsed = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if parsed.version == 6:
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False).network_address)
    return ip


def find_user(login: str):
    """The account a sign-in names, by user name or e-mail address, or None."""
    login = login.strip()
    if not login:
        return None
    users = get_user_model().objects
    if "@" in login:
        found = EmailAddress.objects.filter(email__iexact=login).select_related("user").first()
        return found.user if found else users.filter(email__iexact=login).first()
    return users.filter(username__iexact=login).first()


def account_key(login: str, user) -> str:
    # An unknown name is counted like an account, so failures read alike for both.
    if user is not None:
        return f"user:{user.pk}"
    return "login:" + hashlib.sha256(login.strip().lower().encode()).hexdigest()


def window() -> int:
    return settings.SIGNIN_BURST_MINUTES * 60


def _bucket_key(account: str, bucket: int) -> str:
    return f"signin:failed:{account}:{bucket}"


def failures(account: str, now: float | None = None) -> float:
    """Failures against ``account`` in the last window, from every address (a sliding
    window estimated from two fixed ones: this one's count and a share of the last's)."""
    now = time.time() if now is None else now
    size = window()
    bucket = int(now // size)
    counts = cache.get_many([_bucket_key(account, bucket), _bucket_key(account, bucket - 1)])
    current = counts.get(_bucket_key(account, bucket), 0)
    previous = counts.get(_bucket_key(account, bucket - 1), 0)
    return current + previous * (1 - (now % size) / size)


def count_failure(account: str, now: float | None = None) -> float:
    now = time.time() if now is None else now
    key = _bucket_key(account, int(now // window()))
    cache.add(key, 0, timeout=2 * window())
    try:
        cache.incr(key)
    except ValueError:
        return 0  # the cache is down: nothing is counted
    return failures(account, now)


def _burst_key(account: str) -> str:
    return f"signin:burst:{account}"


def in_burst(account: str) -> bool:
    return cache.get(_burst_key(account)) is not None


def note_burst(account: str, count: float) -> int | None:
    """Start or prolong the account's burst; the start time if this failure began it."""
    key = _burst_key(account)
    calm = BURST_CALM * window()
    if cache.touch(key, timeout=calm):
        return None
    if count < settings.SIGNIN_BURST_FAILURES:
        return None
    started = int(time.time())
    # ``add`` is atomic: of two failures that cross the line together one begins it.
    return started if cache.add(key, started, timeout=calm) else None


@dataclass
class Attempt:
    """One sign-in attempt, counted before the password is checked."""

    account: str
    pair: str  # the account and the address
    usage: ratelimit.RateLimitUsage

    def rollback(self) -> None:
        """The password was right: the attempt was no failure."""
        self.usage.rollback()


def begin(request, login: str, user) -> Attempt:
    """Count the attempt against the address and the account from this address (and,
    in a burst, the tighter limit); raise ``Refused`` when one of them is spent."""
    account = account_key(login, user)
    pair = f"{account}|{address(request)}"
    usage = ratelimit.consume(request, app=APP, action="login_failed", key=pair)
    if not usage:
        raise Refused
    if in_burst(account):
        tight = ratelimit.consume(request, app=APP, action="login_failed_in_burst", key=pair)
        if not tight:
            usage.rollback()
            raise Refused
        usage.usage.extend(tight.usage)
    return Attempt(account, pair, usage)
