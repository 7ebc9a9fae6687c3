"""Swiss pairings: each round, players of like score meet, no two twice while that can be
avoided, and each plays the first and the second seat alike.

Two-player tables (``pair_round``) are a minimum-cost perfect matching (Edmonds' blossom
algorithm, networkx) over every possible pairing, with a dummy "bye" player when the
count is odd. The cost of a pairing is lexicographic, each tier outweighing everything
below it summed over a whole round:

1. a second bye for a player (byes go to distinct players while any is left without one);
2. a repeated pairing;
3. a seat clash (both would need the same seat to stay within one of balance);
4. the difference in score (and a bye to a high scorer);
5. the Dutch fold: within a score group the top half meets the bottom half.

So a round repeats a pairing only if every perfect matching does, which is exactly
"no rematch while avoidable"; the property tests check it against brute force.

Tables of three or four (``group_round``) are cut from the standings in order of score,
then improved by swapping players between tables while that lowers (repeated meetings,
spread of scores); seats go to whoever has had them least.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

BYE = -1


@dataclass(frozen=True)
class Player:
    """One entrant as the pairing sees them before a round."""

    id: int
    score: Fraction = Fraction(0)
    # Place in the current standings (0 = first); decides folds, seats and byes.
    rank: int = 0
    # Everyone they have sat at a table with (in any earlier round).
    met: frozenset[int] = frozenset()
    had_bye: bool = False
    # How often they have played each seat (index = seat number).
    seats: tuple[int, ...] = ()
    # The seat of their latest game, if any.
    last_seat: int | None = None

    def seat_count(self, seat: int) -> int:
        return self.seats[seat] if seat < len(self.seats) else 0

    @property
    def balance(self) -> int:
        """First seats minus second seats (two-player tables)."""
        return self.seat_count(0) - self.seat_count(1)


@dataclass
class Round:
    """The tables of a round, each in seat order, and who has a bye."""

    tables: list[tuple[int, ...]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _units(score: Fraction, scale: int) -> int:
    return int(score * scale)


def pair_round(players: Sequence[Player]) -> Round:
    """Pair two-player tables for one round (see the module's docstring)."""
    if len(players) < 2:
        return Round(byes=[p.id for p in players])
    by_id = {p.id: p for p in players}
    # Scores are sums of halves (a shared win splits the point); scale to integers.
    scale = 2
    groups: dict[Fraction, int] = {}
    for p in players:
        groups[p.score] = groups.get(p.score, 0) + 1
    low = min(p.score for p in players)
    n = len(players)

    def tiers(a: Player, b: Player | None) -> tuple[int, int, int, int, int]:
        if b is None:  # a's bye
            spread = _units(a.score - low, scale)
            return (int(a.had_bye), 0, 0, spread * spread, n - 1 - a.rank)
        repeat = int(b.id in a.met or a.id in b.met)
        clash = int(_sign(a.balance) != 0 and _sign(a.balance) == _sign(b.balance))
        diff = _units(abs(a.score - b.score), scale)
        fold = 0
        if a.score == b.score:
            fold = abs(abs(a.rank - b.rank) * 2 - groups[a.score])
        return (0, repeat, clash, diff * diff, fold)

    candidates = list(itertools.combinations(players, 2))
    edges = [(a.id, b.id, tiers(a, b)) for a, b in candidates]
    if n % 2:
        edges += [(p.id, BYE, tiers(p, None)) for p in players]
    weights = _lexicographic([t for _a, _b, t in edges], n // 2 + 1)
    graph = nx.Graph()
    top = max(weights) + 1
    for (a, b, _t), cost in zip(edges, weights, strict=True):
        graph.add_edge(a, b, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    result = Round()
    pairs = []
    for a, b in matching:
        if BYE in (a, b):
            result.byes.append(a if b == BYE else b)
        else:
            pairs.append(_seat_pair(by_id[a], by_id[b]))
    pairs.sort(key=lambda pair: min(by_id[pair[0]].rank, by_id[pair[1]].rank))
    result.tables = pairs
    return result


def _lexicographic(costs: list[tuple[int, ...]], per_round: int) -> list[int]:
    """One integer per cost tuple such that any sum of ``per_round`` of them orders
    like the sums of the tuples compared tier by tier."""
    width = len(costs[0])
    weights = [0] * len(costs)
    factor = 1
    for tier in reversed(range(width)):
        for i, cost in enumerate(costs):
            weights[i] += cost[tier] * factor
        factor *= max(cost[tier] for cost in costs) * per_round + 1
    return weights


def _seat_pair(a: Player, b: Player) -> tuple[int, int]:
    """Who takes the first seat: whoever has had it less, else whoever had the second
    seat last time, else the higher-placed player."""
    if a.balance != b.balance:
        first = a if a.balance < b.balance else b
    elif a.last_seat != b.last_seat and None not in (a.last_seat, b.last_seat):
        first = a if a.last_seat == 1 else b
    else:
        first = a if a.rank <= b.rank else b
    second = b if first is a else a
    return (first.id, second.id)


def group_round(players: Sequence[Player], size: int) -> Round:
    """Tables of ``size`` (3 or 4) by score; the players left over get byes."""
    ordered = sorted(players, key=lambda p: p.rank)
    spare = len(ordered) % size
    byes: list[Player] = []
    if spare:
        # The lowest placed who have had no bye (then the lowest placed at all).
        fresh = [p for p in reversed(ordered) if not p.had_bye]
        stale = [p for p in reversed(ordered) if p.had_bye]
        byes = (fresh + stale)[:spare]
    playing = [p for p in ordered if p not in byes]
    tables = [playing[i : i + size] for i in range(0, len(playing), size)]
    tables = _improve(tables)
    return Round(
        tables=[_seat_table(table) for table in tables],
        byes=[p.id for p in byes],
    )


def _table_cost(table: list[Player]) -> tuple[int, Fraction]:
    repeats = sum(1 for a, b in itertools.combinations(table, 2) if b.id in a.met)
    mean = sum((p.score for p in table), Fraction(0)) / len(table)
    spread = sum(((p.score - mean) ** 2 for p in table), Fraction(0))
    return repeats, spread


def _improve(tables: list[list[Player]]) -> list[list[Player]]:
    """Swap players between tables while a swap lowers (repeats, score spread) of the
    two tables; deterministic, and it ends (the total cost falls with every swap)."""
    tables = [list(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for x, y in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                before = _add(_table_cost(tables[i]), _table_cost(tables[j]))
                ti, tj = list(tables[i]), list(tables[j])
                ti[x], tj[y] = tj[y], ti[x]
                after = _add(_table_cost(ti), _table_cost(tj))
                if after < before:
                    tables[i], tables[j] = ti, tj
                    improved = True
    return tables


def _add(a: tuple[int, Fraction], b: tuple[int, Fraction]) -> tuple[int, Fraction]:
    return a[0] + b[0], a[1] + b[1]


def _seat_table(table: list[Player]) -> tuple[int, ...]:
    """The seating of one table that keeps everyone's seat counts most even: the one
    with the least spread of (count of each seat) after the game, over every order."""
    size = len(table)

    def cost(order: tuple[Player, ...]) -> tuple[int, int, tuple[int, ...]]:
        worst = 0
        total = 0
        for seat, p in enumerate(order):
            counts = [p.seat_count(s) + (s == seat) for s in range(size)]
            worst = max(worst, max(counts) - min(counts))
            total += p.seat_count(seat)
        return worst, total, tuple(p.rank for p in order)

    best = min(itertools.permutations(table), key=cost)
    return tuple(p.id for p in best)
