"""A page of a long list without counting the list.

Django's ``Paginator`` counts every row to know the number of pages; over an
archive of 100,000 games that COUNT costs more than the page itself. The
archive only offers "newer" and "older", so one extra row tells whether there
is an older page.
"""

from __future__ import annotations

from dataclasses import dataclass

# A bound on the offset: a page number of forty digits must not reach the database.
MAX_PAGE = 100_000


@dataclass
class UncountedPage:
    object_list: list
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    def next_page_number(self) -> int:
        return self.number + 1

    def previous_page_number(self) -> int:
        return self.number - 1


def page_of(queryset, per_page: int, number) -> UncountedPage:
    """Page ``number`` (1 for anything that is not a positive whole number; at most MAX_PAGE)."""
    try:
        number = min(max(1, int(number)), MAX_PAGE)
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * per_page
    rows = list(queryset[start : start + per_page + 1])
    return UncountedPage(rows[:per_page], number, has_next=len(rows) > per_page)
