"""Which open tickets sit down together: a pure function, tickets in, tables out.

Plain Python (the ``pure`` contract in pyproject.toml): ``automatch.tickets`` reads the
rows and the ratings, asks ``match``, and starts the games it answers.

The rules, each checked by ``tests/automatch/test_matching.py``:

- tickets share a table only when they want the same game (``Want.table``: title, map
  and options, pace, rated or not) and all accept its number of players;
- nobody sits twice, at one table or at two (a player may look for several games);
- ratings are respected both ways: every player's rating lies in every other player's
  range at the table (``low``/``high``, None for "any");
- two players kept ``apart`` (one blocked the other) never share a table;
- longest waiting first: the tickets are taken in the order they were posted; each
  in turn gets the table, among those it could have now, whose players posted
  earliest, and the largest such table the ticket accepts. So no ticket is left
  waiting while a later one took a place it could have taken.
- a ticket still unmatched at its ``fill_at`` gets a table of its own with computer
  players in the other seats (the fewest players it accepts).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

# How many partial tables one ticket's search may try before it gives up for this run
# (it is tried again on the next). Tables are small (up to the engines' maximum), but
# a pool of pairwise misfits could make an exhaustive search of four-player tables
# slow; far more than a real pool ever needs.
SEARCH_LIMIT = 20_000


@dataclass(frozen=True)
class Want:
    """One open ticket, as the matcher sees it."""

    id: int
    user: int
    # Tickets share a table only when these are equal: (title, options, pace, rated).
    table: Hashable
    counts: frozenset[int]
    rating: int
    low: int | None = None
    high: int | None = None
    # When it was posted (any comparable value): earlier tickets are served first.
    since: Any = 0
    # From when computer players may fill its table (None: never).
    fill_at: Any = None

    def accepts(self, rating: int) -> bool:
        return (self.low is None or rating >= self.low) and (
            self.high is None or rating <= self.high
        )


@dataclass(frozen=True)
class Group:
    """A table to start: the tickets (in the order they were posted), the number of
    players, and how many of them are computer players."""

    tickets: tuple[int, ...]
    players: int
    computers: int = 0


def fit(a: Want, b: Want, apart: frozenset[frozenset[int]] = frozenset()) -> bool:
    """May ``a`` and ``b`` sit at one table (leaving aside the number of players)?"""
    return (
        a.user != b.user
        and a.table == b.table
        and a.accepts(b.rating)
        and b.accepts(a.rating)
        and frozenset((a.user, b.user)) not in apart
    )


def match(
    wants: Iterable[Want],
    now: Any = None,
    apart: Iterable[frozenset[int]] = (),
) -> list[Group]:
    """The tables to start now, longest waiting first (see the module's docstring).

    ``now``: compared with each ticket's ``fill_at`` (None: no computer fills a table).
    ``apart``: pairs of user ids that must not share a table."""
    apart = frozenset(frozenset(pair) for pair in apart)
    ordered = sorted(wants, key=lambda w: (w.since, w.id))
    pools: dict[Hashable, list[Want]] = defaultdict(list)
    for want in ordered:
        pools[want.table].append(want)
    place = {want.id: index for pool in pools.values() for index, want in enumerate(pool)}
    taken: set[int] = set()
    seated: set[int] = set()
    groups = []
    for leader in ordered:
        if leader.id in taken or leader.user in seated:
            continue
        pool = pools[leader.table]
        # Tickets posted before the leader were leaders themselves and found no table
        # among these same tickets (only fewer are free now): none is worth trying.
        later = (
            w
            for w in itertools.islice(pool, place[leader.id] + 1, None)
            if w.id not in taken and w.user not in seated and fit(leader, w, apart)
        )
        table = _first_table(leader, _Lazy(later), apart)
        if table is None:
            continue
        taken.update(w.id for w in table)
        seated.update(w.user for w in table)
        groups.append(Group(tuple(w.id for w in table), len(table)))
    for want in ordered:
        if (
            now is not None
            and want.fill_at is not None
            and want.fill_at <= now
            and want.id not in taken
            and want.user not in seated
        ):
            seated.add(want.user)
            players = min(want.counts)
            groups.append(Group((want.id,), players, computers=players - 1))
    return groups


class _Lazy:
    """A list read from an iterator as far as it is asked for: most tickets find their
    table among the first few that fit, and the rest of the pool is never read."""

    def __init__(self, items: Iterator[Want]) -> None:
        self._items = items
        self._read: list[Want] = []

    def get(self, index: int) -> Want | None:
        while len(self._read) <= index:
            item = next(self._items, None)
            if item is None:
                return None
            self._read.append(item)
        return self._read[index]


def _first_table(leader: Want, later: _Lazy, apart) -> list[Want] | None:
    """The earliest-posted table for ``leader`` among ``later`` (each fits the leader),
    trying the largest number of players first."""
    for players in sorted(leader.counts, reverse=True):
        if players < 2:
            continue
        candidates = _Lazy(_accepting(later, players))
        found = _extend([leader], candidates, 0, players - 1, apart, [SEARCH_LIMIT])
        if found is not None:
            return found
    return None


def _accepting(later: _Lazy, players: int) -> Iterator[Want]:
    index = 0
    while (want := later.get(index)) is not None:
        if players in want.counts:
            yield want
        index += 1


def _extend(
    table: list[Want],
    candidates: _Lazy,
    start: int,
    needed: int,
    apart,
    budget: list[int],
) -> list[Want] | None:
    """Depth first, in the order of posting: the first table found is the one whose
    players posted earliest."""
    if needed == 0:
        return table
    index = start
    while (want := candidates.get(index)) is not None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        # The leader's fit was checked when the candidates were chosen.
        if all(fit(want, other, apart) for other in table[1:]):
            found = _extend([*table, want], candidates, index + 1, needed - 1, apart, budget)
            if found is not None:
                return found
        index += 1
    return None
