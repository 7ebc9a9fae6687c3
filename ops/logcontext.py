"""What a log line written during a request carries (``LOG_FORMAT=json``): the request
id, the user id, the route name and the game id (from the route's arguments).

Kept in a context variable that ``ops.middleware.Observe`` sets for the request, and
added to every record by ``RequestContext``, a filter on the log handler. Only ids and
names of routes: never an e-mail address, a client address or a chat line.

Imported by the logging configuration before the apps load: no models here.
"""

from __future__ import annotations

import contextvars
import logging
import re
import uuid

_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "request_context", default=None
)

FIELDS = ("request_id", "user_id", "route", "game_id")

# A request id a proxy may hand on: short, and nothing that could forge a log line.
SANE_ID = re.compile(r"[A-Za-z0-9._:-]{8,100}")


def request_id_from(header: str | None) -> str:
    if header and SANE_ID.fullmatch(header):
        return header
    return uuid.uuid4().hex


def begin(request_id: str) -> contextvars.Token:
    return _current.set({"request_id": request_id})


def update(**values) -> None:
    context = _current.get()
    if context is not None:
        context.update({k: v for k, v in values.items() if v is not None})


def end(token: contextvars.Token) -> None:
    _current.reset(token)


def current() -> dict:
    return dict(_current.get() or {})


class RequestContext(logging.Filter):
    """Adds the request's fields to each record (None outside a request); a field the
    call gave itself (``extra={"game_id": ...}``) is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = _current.get() or {}
        for field in FIELDS:
            if not hasattr(record, field):
                setattr(record, field, context.get(field))
        return True
