"""Error reports to Sentry (``SENTRY_DSN``), from the web processes and the Celery
workers, with nothing personal in them.

``send_default_pii=False`` keeps the SDK from adding the user, cookies, client
addresses and request bodies; ``scrub`` (``before_send``) removes what could still
carry them (request data, cookies and headers, local variables, breadcrumbs' data),
blanks every e-mail address and IP address left in any text, and keeps of the user
only the id from the request's log context (``ops.logcontext``).

Called from the settings module, before the apps load: no models here.
"""

from __future__ import annotations

import re
import warnings
from email.utils import parseaddr

from . import logcontext

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
IPV4 = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")
IPV6 = re.compile(r"\b(?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{1,4}\b")
# Request headers worth keeping; the rest (Cookie, Authorization, X-Forwarded-For,
# Referer with its query, ...) may identify somebody.
KEEP_HEADERS = {"accept", "accept-language", "content-type", "content-length", "host", "hx-request"}


def _blank(value):
    if isinstance(value, str):
        return IPV6.sub("[ip]", IPV4.sub("[ip]", EMAIL.sub("[email]", value)))
    if isinstance(value, dict):
        return {k: _blank(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_blank(v) for v in value]
    return value


def admins(entries: list[str]) -> list[tuple[str, str]]:
    """``ADMINS`` from its variable: "Name <address>" (or a bare address) per entry."""
    found = []
    for entry in entries:
        name, address = parseaddr(entry)
        if "@" not in address:
            raise ValueError(f"ADMINS: not an e-mail address: {entry!r}")
        found.append((name or address, address))
    return found


def scrub(event: dict, hint: dict | None = None) -> dict:
    request = event.get("request")
    if isinstance(request, dict):
        for field in ("data", "cookies", "env", "query_string"):
            request.pop(field, None)
        headers = request.get("headers") or {}
        request["headers"] = {k: v for k, v in headers.items() if k.lower() in KEEP_HEADERS}
    for exception in (event.get("exception") or {}).get("values") or []:
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    for crumb in (event.get("breadcrumbs") or {}).get("values") or []:
        crumb.pop("data", None)
    event.pop("extra", None)
    user_id = logcontext.current().get("user_id")
    event["user"] = {"id": str(user_id)} if user_id is not None else {}
    return _blank(event)


def init(dsn: str, environment: str, traces_sample_rate: float, release: str) -> None:
    """Start reporting (web and Celery: the SDK finds both integrations by itself)."""
    import sentry_sdk

    with warnings.catch_warnings():
        # sentry-sdk 2.75 deprecates send_default_pii for the newer data_collection, and
        # keeps its meaning: False is the documented, widely known way to say "no PII".
        warnings.simplefilter("ignore", DeprecationWarning)
        _init(sentry_sdk, dsn, environment, traces_sample_rate, release)


def _init(sentry_sdk, dsn, environment, traces_sample_rate, release) -> None:
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        release=release,
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub,
        before_send_transaction=scrub,
        integrations=[DjangoIntegration(), CeleryIntegration()],
    )
