"""Who runs the site and how long it keeps what: the facts the imprint and the privacy
notice print, all read from settings (the environment), never written into a page."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.core import checks

# Without these the imprint (§ 5 DDG) and the privacy notice (Art. 13 GDPR) are incomplete.
REQUIRED = (
    "OPERATOR_NAME",
    "OPERATOR_ADDRESS",
    "OPERATOR_EMAIL",
    "HOSTING_PROVIDER",
    "MAIL_PROVIDER",
)


def lines(value: str) -> list[str]:
    """A multi-line setting (an address): lines separated by "|" or a newline, or by the
    two characters "\\n" as an environment file may hold them."""
    return [part.strip() for part in re.split(r"\||\n|\\n", value or "") if part.strip()]


@dataclass(frozen=True)
class Operator:
    name: str
    address: list[str]
    email: str
    phone: str
    register: str
    vat_id: str
    content_responsible: list[str]
    hosting: list[str]
    mail: list[str]


def operator() -> Operator:
    return Operator(
        name=settings.OPERATOR_NAME,
        address=lines(settings.OPERATOR_ADDRESS),
        email=settings.OPERATOR_EMAIL,
        phone=settings.OPERATOR_PHONE,
        register=settings.OPERATOR_REGISTER,
        vat_id=settings.OPERATOR_VAT_ID,
        content_responsible=lines(settings.CONTENT_RESPONSIBLE)
        or [settings.OPERATOR_NAME, *lines(settings.OPERATOR_ADDRESS)],
        hosting=lines(settings.HOSTING_PROVIDER),
        mail=lines(settings.MAIL_PROVIDER),
    )


@dataclass(frozen=True)
class Periods:
    """How long things are kept, in the units the notice names them."""

    unverified_days: int
    sent_days: int
    address_minutes: int
    session_days: int


def periods() -> Periods:
    return Periods(
        unverified_days=settings.RETAIN_UNVERIFIED_DAYS,
        sent_days=settings.RETAIN_SENT_DAYS,
        address_minutes=settings.RETAIN_ADDRESS_MINUTES,
        session_days=settings.SESSION_COOKIE_AGE // (24 * 60 * 60),
    )


def check_operator(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if settings.DEBUG:
        return []
    return [
        checks.Warning(
            f"{name} is empty: the imprint and the privacy notice name nobody.",
            hint=f"Set {name} in the environment (README, configuration).",
            id="privacy.W001",
        )
        for name in REQUIRED
        if not getattr(settings, name).strip()
    ]


def address_lifetimes() -> dict[str, int]:
    """Seconds each place that holds a client address keeps it: allauth's rate limits
    per address (a cache entry that expires with its window) and the live streams'
    count of an anonymous viewer (``live.caps``, refreshed while the stream is open)."""
    from allauth.account import app_settings
    from allauth.core.internal.ratelimit import parse_rates

    from live import caps

    found = {"live.caps (open stream, per refresh)": caps.TTL}
    for action, spec in app_settings.RATE_LIMITS.items():
        for rate in parse_rates(spec) if spec else []:
            if rate.per == "ip":
                found[f"rate limit {action}"] = int(rate.duration)
    return found


def check_address_retention(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """The notice promises client addresses are kept at most RETAIN_ADDRESS_MINUTES."""
    limit = settings.RETAIN_ADDRESS_MINUTES * 60
    return [
        checks.Error(
            f"{where} keeps a client address {seconds} s, longer than "
            f"RETAIN_ADDRESS_MINUTES ({settings.RETAIN_ADDRESS_MINUTES} min).",
            hint="Shorten the rate's window or raise RETAIN_ADDRESS_MINUTES (privacy notice).",
            id="privacy.E001",
        )
        for where, seconds in address_lifetimes().items()
        if seconds > limit
    ]
