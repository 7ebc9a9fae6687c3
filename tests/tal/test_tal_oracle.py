"""legal_actions against an independent re-implementation of the rules (an oracle).

The oracle builds the board graph from the text of tal-der-koenige-board.md again and
derives every legal action of a position from first principles; positions come from
random games.
"""

import random
from collections import deque

import pytest

from tal.engine import ENGINE_V1
from tests.tal.tal_helpers import E, bot_action

# --- the board, written out again from tal-der-koenige-board.md ---------------------------
ADJ = [(16, 17), (16, 19), (16, 21), (17, 18), (19, 20), (21, 22)]
LARGE_SPLIT = {2: (17, 18), 6: (19, 20), 10: (21, 22)}
LARGE_ONE = {3: 18, 7: 20, 11: 22}
SMALL = {1: 17, 4: 18, 5: 19, 8: 20, 9: 21, 12: 22, 13: 16, 14: 16, 15: 16}


def site_fields():
    out = {}
    for s, (a, b) in LARGE_SPLIT.items():
        out[s] = {f"{s}-{ch}": (a if ch in "ABCD" else b) for ch in "ABCDEFGH"}
    for s, a in LARGE_ONE.items():
        out[s] = {f"{s}-{ch}": a for ch in "ABCDEFGH"}
    for s, a in SMALL.items():
        out[s] = {f"{s}-{ch}": a for ch in "ABCD"}
    return out


FIELDS = site_fields()
SITE_OF = {f: s for s, fs in FIELDS.items() for f in fs}
GRAPH: dict[str, set[str]] = {str(a): set() for a in range(16, 23)}
for a, b in ADJ:
    GRAPH[str(a)].add(str(b))
    GRAPH[str(b)].add(str(a))
for fs in FIELDS.values():
    names = list(fs)
    for i, f in enumerate(names):
        GRAPH.setdefault(f, set())
        nxt = names[(i + 1) % len(names)]
        GRAPH.setdefault(nxt, set())
        GRAPH[f] |= {nxt, str(fs[f])}
        GRAPH[nxt].add(f)
        GRAPH[str(fs[f])].add(f)


def bfs(start):
    d = {start: 0}
    q = deque([start])
    while q:
        n = q.popleft()
        for m in GRAPH[n]:
            if m not in d:
                d[m] = d[n] + 1
                q.append(m)
    return d


DIST = {n: bfs(n) for n in GRAPH}


def key(a):
    return tuple(sorted(a.items()))


def at_site(positions, site):
    return sum(1 for p in positions if SITE_OF.get(p) == site)


def oracle(s, seat, rules=2):
    """The set of legal actions, derived from the rules without the engine's helpers
    (``rules``: the rules version; from 2 on, no figure ends on a site out of play)."""
    out = set()

    def closed(n):
        site = SITE_OF.get(n)
        return rules >= 2 and site is not None and not s.sites[site].in_play

    occupied = {p for ps in s.overseers + s.workers for p in ps if p in SITE_OF}
    if s.phase == "bid":
        for g, bids in enumerate(s.bids):
            laid = sum(r for who, r in bids if who == seat)
            for v in set(s.tiles[seat]):
                if laid + v <= 10:
                    out.add(key({"type": "bid", "group": g + 1, "rings": v}))
        out.add(key({"type": "end_bids"}))
    elif s.phase in ("overseer", "worker"):
        figs = s.overseers[seat] if s.phase == "overseer" else s.workers[seat]
        for i, pos in enumerate(figs):
            if i in s.moved:
                continue
            for n in GRAPH:
                if n == pos or n in occupied or DIST[pos][n] > 6 - s.steps_used or closed(n):
                    continue
                site = SITE_OF.get(n)
                if s.round == 1 and site and s.sites[site].owner not in (None, seat):
                    continue
                out.add(key({"type": "move", "figure": s.phase, "index": i, "to": n}))
        out.add(key({"type": "end_moves"}))
    elif s.phase == "plan":
        pos, plan = s.overseers[seat], s.plans[seat]
        for i in (0, 1):
            o = 1 - i
            other_target = pos[o] if plan[o] is None else plan[o]
            for n in GRAPH:
                if closed(n):
                    continue
                if n != plan[i] and DIST[pos[i]][n] + DIST[pos[o]][other_target] <= 6:
                    out.add(key({"type": "plan", "index": i, "to": n}))
        if None not in plan:
            out.add(key({"type": "submit_plan"}))
    elif s.phase == "takeover":
        scarabs = 8 - sum(1 for x in s.sites.values() if x.owner == seat)
        for num, site in s.sites.items():
            o = site.owner
            if o is None or o == seat or site.finished or not site.in_play or scarabs < 1:
                continue
            if at_site(s.overseers[seat], num) > at_site(s.overseers[o], num) and at_site(
                s.workers[seat], num
            ) > at_site(s.workers[o], num):
                out.add(key({"type": "takeover", "site": num}))
        out.add(key({"type": "end_takeover"}))
    elif s.phase == "steal":
        for num, site in s.sites.items():
            o = site.owner
            if o is None or o == seat or site.finished or not site.in_play:
                continue
            workers = at_site(s.workers[seat], num)
            if at_site(s.overseers[seat], num) <= at_site(s.overseers[o], num) or not workers:
                continue
            if s.turn_used.get(num, 0) >= 2 * workers:
                continue
            filled = [lv for lv, st in enumerate(site.levels) if any(c is not None for c in st)]
            if not filled:
                continue
            top = site.levels[max(filled)]
            for k in matter(s, site, max(filled), [k for k, c in enumerate(top) if c], top):
                out.add(key({"type": "steal", "site": num, "slot": k}))
        out.add(key({"type": "end_steal"}))
    elif s.phase == "build":
        held = [c for c, n in s.supply[seat].items() if n > 0]
        for num, site in s.sites.items():
            if site.owner != seat or site.finished or not site.in_play or not held:
                continue
            if s.turn_used.get(num, 0) >= 2 * at_site(s.workers[seat], num):
                continue
            lv = next(lv for lv, st in enumerate(site.levels) if None in st)
            free = [k for k, c in enumerate(site.levels[lv]) if c is None]
            for k in matter(s, site, lv, free, [None] * len(site.levels[lv])):
                for c in held:
                    out.add(key({"type": "build", "site": num, "slot": k, "colour": c}))
        out.add(key({"type": "end_build"}))
    return out


def matter(s, site, level, slots, colours):
    """The slots worth offering: all with stripes (expert), else the lowest slot of each
    colour among the visible stones and among the hidden centre (large bottom level)."""
    if s.expert:
        return slots
    seen, out = set(), []
    for k in sorted(slots):
        kind = (colours[k], site.size == "large" and level == 0 and k == 4)
        if kind not in seen:
            seen.add(kind)
            out.append(k)
    return out


@pytest.mark.parametrize("engine", [E, ENGINE_V1], ids=["rules-2", "rules-1"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_match_the_oracle_in_random_games(players, engine):
    checked = 0
    E = engine
    for seed in range(3):
        rng = random.Random(seed)
        s = E.setup(players, {"expert": seed == 1}, seed)
        while E.result(s) is None:
            for seat in range(players):
                if seat in E.active_seats(s):
                    want = oracle(s, seat, E.rules_version)
                    if want is not None:
                        got = [key(a) for a in E.legal_actions(s, seat)]
                        assert len(got) == len(set(got))
                        assert set(got) == want, (s.phase, seat)
                        checked += 1
                else:
                    assert E.legal_actions(s, seat) == []
            seat = rng.choice(sorted(E.active_seats(s)))
            s = E.apply(s, seat, bot_action(s, seat, rng))
    assert checked > 100


def test_oracle_graph_agrees_with_the_rule_book_examples():
    assert DIST["16"]["15-B"] == 1 and DIST["16"]["17"] == 1
    assert DIST["6-C"]["16"] == 2 and DIST["6-C"]["20"] == 2


def oracle_plans(s):
    """Overseers and owners after carrying out the plans of a plan-phase state."""
    overseers = [list(p) for p in s.overseers]
    owners = {n: site.owner for n, site in s.sites.items()}
    for seat in [(s.start_player + k) % s.players for k in range(s.players)]:
        plan = s.plans[seat]
        if sum(DIST[overseers[seat][i]][plan[i]] for i in (0, 1)) > 6:
            continue
        overseers[seat] = [None, None]
        for i in (0, 1):
            taken = {p for ps in overseers + s.workers for p in ps if p in SITE_OF}
            target = plan[i]
            if target in taken:
                overseers[seat][i] = str(FIELDS[SITE_OF[target]][target])
                continue
            overseers[seat][i] = target
            site = SITE_OF.get(target)
            held = sum(1 for o in owners.values() if o == seat)
            if site and s.sites[site].in_play and owners[site] is None and held < 8:
                owners[site] = seat
    return overseers, owners


def oracle_winners(s):
    """Winner of each group: the highest total over 0, ties to the first to lay a tile."""
    winners = []
    for bids in s.bids:
        totals = {}
        for seat, rings in bids:
            totals[seat] = totals.get(seat, 0) + rings
        best = max(totals.values(), default=0)
        winners.append(next((x for x, t in totals.items() if t == best), None) if best else None)
    return winners


def test_auctions_and_plans_are_resolved_as_the_oracle_says_in_random_games():
    auctions = plans = 0
    for players in (2, 3, 4):
        for seed in range(4):
            rng = random.Random(seed)
            s = E.setup(players, {"advanced": seed % 2 == 1}, seed)
            while E.result(s) is None:
                seat = rng.choice(sorted(E.active_seats(s)))
                before, s = s, E.apply(s, seat, bot_action(s, seat, rng))
                if before.phase == "bid" and s.phase != "bid":
                    assert s.winners == oracle_winners(s)
                    auctions += 1
                if before.phase == "plan" and s.phase != "plan":
                    overseers, owners = oracle_plans(before)
                    assert s.overseers == overseers
                    assert {n: site.owner for n, site in s.sites.items()} == owners
                    plans += 1
    assert auctions > 30 and plans > 20
