"""A page of a long list by keyset: the page after (or before) a row, never an offset.

An offset makes the database read and throw away every row before the page, so page
3,000 of an archive of 100,000 games costs a hundred times page 1, and a game that ends
while a reader pages moves every later page by one. A keyset page starts at the row the
link names (its sort value and id) and reads along the list's index from there: every
page costs what the first does. Nothing counts the list either (one extra row tells
whether there is another page).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from django.db.models import Q, QuerySet

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MICROSECOND = datetime.timedelta(microseconds=1)
# "<sort value>.<id>", both whole numbers (a time as microseconds since 1970).
CURSOR = re.compile(r"(\d{1,18})\.(\d{1,18})")


class BadCursor(ValueError):
    """A cursor that no page of ours links to (edited by hand, or cut off)."""


@dataclass(frozen=True)
class Order:
    """A list's order: by ``field`` (a lookup path), then by ``id``, both one way."""

    field: str
    descending: bool
    is_time: bool = False
    id_field: str = "id"

    def cursor(self, row) -> str:
        value = _attribute(row, self.field)
        if self.is_time:
            value = (value - EPOCH) // MICROSECOND
        return f"{value}.{_attribute(row, self.id_field)}"

    def parse(self, text: str) -> tuple:
        found = CURSOR.fullmatch(text or "")
        if found is None:
            raise BadCursor(text)
        value, row_id = int(found[1]), int(found[2])
        if self.is_time:
            try:
                return EPOCH + value * MICROSECOND, row_id
            except OverflowError:
                raise BadCursor(text) from None
        return value, row_id

    def ordering(self, forward: bool) -> list[str]:
        down = self.descending == forward
        return [f"{'-' if down else ''}{self.field}", f"{'-' if down else ''}{self.id_field}"]

    def beyond(self, cursor: tuple, forward: bool) -> Q:
        """The rows after ``cursor`` (before it: not ``forward``) in this order. Written
        as ``field <= v AND (field < v OR id < i)`` rather than only the OR: the first
        half is a bound the database seeks to in the index instead of walking to it."""
        value, row_id = cursor
        down = self.descending == forward
        strict, loose = ("lt", "lte") if down else ("gt", "gte")
        return Q(**{f"{self.field}__{loose}": value}) & (
            Q(**{f"{self.field}__{strict}": value}) | Q(**{f"{self.id_field}__{strict}": row_id})
        )


def _attribute(row, path: str):
    for name in path.split("__"):
        row = getattr(row, name)
    return row


@dataclass
class KeysetPage:
    object_list: list
    has_next: bool
    has_previous: bool
    next_cursor: str | None
    previous_cursor: str | None


def keyset_page(
    rows: QuerySet, order: Order, per_page: int, after: str = "", before: str = ""
) -> KeysetPage:
    """The ``per_page`` rows of ``rows`` in ``order`` that follow the row ``after`` names,
    or precede the row ``before`` names, or the first ones. ``BadCursor`` for a cursor
    no page links to."""
    forward = not before
    cursor = order.parse(after or before) if (after or before) else None
    if cursor is not None:
        rows = rows.filter(order.beyond(cursor, forward))
    found = list(rows.order_by(*order.ordering(forward))[: per_page + 1])
    more, found = len(found) > per_page, found[:per_page]
    if not forward:
        found.reverse()
    has_next = more if forward else True
    has_previous = (cursor is not None) if forward else more
    # An empty page (the games beyond a link ended, or were made private) links back
    # to where it started.
    first = order.cursor(found[0]) if found else (after or None)
    last = order.cursor(found[-1]) if found else (before or None)
    return KeysetPage(found, has_next, has_previous, last, first)
