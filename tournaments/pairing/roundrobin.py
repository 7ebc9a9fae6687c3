"""Round robin within groups: every entrant of a group meets every other in the same
number of games, and plays each seat equally often (or within one, see ``seat``).

A group of ``g`` players at tables of ``t`` is played as a *design*: a list of tables
(blocks) in which every pair of the group sits together equally often. Which designs
exist depends on (g, t), so a group's size is one of ``allowed_sizes(t)``:

- two-player tables: any size (the circle method, one round per table set);
- g == t: the one table;
- three-player tables: 4 and 5 (every triple), 7 (the Fano plane: each pair once),
  9 (the affine plane of order 3: each pair once, in 4 rounds of 3 tables);
- four-player tables: 5 (every quadruple), 7 (the complements of the Fano lines: each
  pair twice), 13 (the projective plane of order 3: each pair once).

With ``every_seating`` each table is played ``t`` times, the seats rotated by one each
time: everyone plays every seat exactly equally. Otherwise each table is played once
and the seats come from an equitable edge colouring (de Werra): each player's seat
counts differ by at most one, and are equal whenever their number of games allows it.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence

Block = tuple[int, ...]

_DESIGNS = {3: (4, 5, 7, 9), 4: (5, 7, 13)}
LARGEST_TWO_PLAYER_GROUP = 16


def allowed_sizes(t: int) -> list[int]:
    """The group sizes a round robin at tables of ``t`` can be played in."""
    if t == 2:
        return list(range(2, LARGEST_TWO_PLAYER_GROUP + 1))
    return sorted({t, *_DESIGNS.get(t, ())})


def group_sizes(n: int, t: int, target: int) -> list[int] | None:
    """Sizes of groups for ``n`` entrants, each allowed, as near ``target`` as can be
    (least sum of squared differences, then fewest groups); None if ``n`` cannot be split."""
    sizes = allowed_sizes(t)
    best: dict[int, tuple[int, int, list[int]] | None] = {0: (0, 0, [])}
    for total in range(1, n + 1):
        options = []
        for size in sizes:
            rest = best.get(total - size) if total >= size else None
            if rest is not None:
                cost, count, parts = rest
                options.append((cost + (size - target) ** 2, count + 1, sorted([*parts, size])))
        best[total] = min(options) if options else None
    found = best[n]
    return sorted(found[2], reverse=True) if found else None


def largest_playable(n: int, t: int) -> int:
    """The most of ``n`` entrants that can be split into groups (the rest wait out)."""
    for m in range(n, 0, -1):
        if group_sizes(m, t, t) is not None:
            return m
    return 0


def deal(seeded: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Entrants in seed order dealt into groups like cards, back and forth (a snake),
    so each group gets strong and weak players alike."""
    groups: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    forward = True
    pending = list(seeded)
    while pending:
        for g in order if forward else reversed(order):
            if pending and len(groups[g]) < sizes[g]:
                groups[g].append(pending.pop(0))
        forward = not forward
    return groups


def design(g: int, t: int) -> list[list[Block]]:
    """The rounds of a group of ``g`` (local numbers 0..g-1) at tables of ``t``: each round
    a list of tables no two of which share a player."""
    if g not in allowed_sizes(t):
        raise ValueError(f"no round robin design for {g} players at tables of {t}")
    if t == 2:
        return _circle(g)
    if g == t:
        return [[tuple(range(g))]]
    if t == 3 and g == 9:
        return _affine_plane_3()
    if t == 3 and g == 7:
        return [[line] for line in _fano()]
    if t == 4 and g == 7:
        return [[tuple(sorted(set(range(7)) - set(line)))] for line in _fano()]
    if t == 4 and g == 13:
        return [[tuple(sorted((i + d) % 13 for d in (0, 1, 3, 9)))] for i in range(13)]
    # Every t-subset: with g < 2t any two of them share a player, one table a round.
    return [[block] for block in itertools.combinations(range(g), t)]


def _circle(g: int) -> list[list[Block]]:
    """The circle method (Berger tables): g-1 rounds, or g with a player out in each."""
    players = list(range(g)) + ([None] if g % 2 else [])
    m = len(players)
    rounds = []
    for r in range(m - 1):
        tables = []
        for i in range(m // 2):
            a, b = players[i], players[m - 1 - i]
            if a is not None and b is not None:
                tables.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(tables)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _fano() -> list[Block]:
    return [tuple(sorted((i + d) % 7 for d in (0, 1, 3))) for i in range(7)]


def _affine_plane_3() -> list[list[Block]]:
    """AG(2,3): points (x, y) of Z3², numbered 3x + y; the lines of one slope are a round."""
    rounds = []
    for slope in range(3):
        rounds.append(
            [tuple(sorted(3 * x + (slope * x + c) % 3 for x in range(3))) for c in range(3)]
        )
    rounds.append([tuple(3 * c + y for y in range(3)) for c in range(3)])
    return rounds


def schedule(groups: Sequence[Sequence[int]], t: int, every_seating: bool) -> list[list[Block]]:
    """Every round of the whole round robin: the groups' rounds side by side (round k
    of each group together), each table in seat order, in entrant ids."""
    per_group = []
    for members in groups:
        rounds = design(len(members), t)
        if every_seating:
            rounds = [
                [tuple(block[(s + k) % t] for s in range(t)) for block in tables]
                for k in range(t)
                for tables in rounds
            ]
        else:
            rounds = seat(rounds, t)
        per_group.append([[tuple(members[i] for i in block) for block in r] for r in rounds])
    length = max((len(r) for r in per_group), default=0)
    return [
        [block for rounds in per_group if k < len(rounds) for block in rounds[k]]
        for k in range(length)
    ]


def seat(rounds: list[list[Block]], t: int) -> list[list[Block]]:
    """Reorder each table so that every player's seat counts differ by at most one.

    An equitable edge colouring of the bipartite graph players × tables with the seats
    as colours: each table has each seat once; while a player has seat ``a`` at least
    twice more than seat ``b``, swap a and b along an alternating trail from that player
    (it ends at a player with more b than a). Each swap lowers the sum of squared
    differences, so it ends (de Werra's theorem says it ends equitable).
    """
    tables = [list(block) for tables in rounds for block in tables]
    # colour[i][s] = the player at seat s of table i
    colour = [list(block) for block in tables]

    def count(player: int) -> Counter:
        return Counter(s for row in colour for s, p in enumerate(row) if p == player)

    players = sorted({p for row in colour for p in row})
    changed = True
    while changed:
        changed = False
        for player in players:
            counts = count(player)
            for a, b in itertools.permutations(range(t), 2):
                if counts[a] - counts[b] >= 2:
                    _swap_trail(colour, player, a, b)
                    changed = True
                    break
            if changed:
                break
    it = iter(colour)
    return [[tuple(next(it)) for _ in tables_of_round] for tables_of_round in rounds]


def _swap_trail(colour: list[list[int]], start: int, a: int, b: int) -> None:
    """Swap seats a and b along a trail from ``start``: out through an a-table, back
    through its b-seat, on until a player with no unused a-table is reached."""
    a_tables: dict[int, list[int]] = defaultdict(list)
    for i, row in enumerate(colour):
        a_tables[row[a]].append(i)
    used: set[int] = set()
    player = start
    trail = []
    while True:
        nxt = next((i for i in a_tables[player] if i not in used), None)
        if nxt is None:
            break
        used.add(nxt)
        trail.append(nxt)
        player = colour[nxt][b]
    for i in trail:
        colour[i][a], colour[i][b] = colour[i][b], colour[i][a]
