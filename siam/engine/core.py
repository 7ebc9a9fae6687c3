"""State, set-up and rules of King of Siam / King of Saba (no view code here)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from enginekit import N_
from enginekit.log import SharedLog

from .maps import (
    AIDS,
    FACTION,
    FACTIONS,
    FOLLOWERS_PER_COLOUR,
    FREE,
    INVADER_LIMIT,
    KING,
    KING_MARKERS,
    MAPS,
    SWAP21,
    MapData,
)

INVADER = 3  # controller value for the British / Italians

Pick = tuple[str, int]  # (province id, faction index)
Swap = frozenset[tuple[str, tuple[int, ...]]]  # {(province, colours it gives), (other, ...)}
Action = dict[str, Any]
# The log line of a card play: the order of every seat's plays (``State.last_play``) is
# public, and a state rebuilt from a view (:mod:`siam.engine.rebuild`) reads it from these.
PLAYS = N_("{player} plays {card}.")


@dataclass(frozen=True)
class Pending:
    """The card being carried out by the seat whose turn it is."""

    card: str
    kind: str
    stage: str  # "tile", "king", "place", "swap" or "take"
    picks: tuple[Any, ...] = ()  # tiles (Maharacha) or (province, faction) picks (swaps)
    to_place: tuple[int, ...] = ()  # factions still to place (Khon Thai, faction cards)
    targets: tuple[str, ...] = ()  # provinces a faction card may place into
    restriction: Swap | None = None  # the swap this card may not make (no-undo rule)
    last_card: bool = False  # the very last action card of the game (ruling 6)


@dataclass
class State:
    map_id: str
    players: int
    seed: int  # never shown in a view
    aids: list[int]
    followers: list[list[int]]  # per seat, per faction
    supply: list[int]
    removed: list[int]  # 2 players: the followers that left the game
    counts: dict[str, list[int]]  # province -> followers per faction
    controller: dict[str, int | None]  # faction index, INVADER or None
    track: list[str]  # province tiles on the track, position 1 first
    kings: list[str]  # provinces whose tile carries a King marker
    resolved: list[str]  # provinces in the order of their takeover
    hands: list[dict[str, int]]  # card id -> copies left
    played: list[list[str]]  # card ids, oldest first
    last_play: list[int]  # serial of each seat's latest card play, -1 if none
    plays: int = 0  # card plays so far
    turn: int = 0
    passed: list[bool] = field(default_factory=list)
    passes: int = 0  # passes in a row
    pending: Pending | None = None
    swap_memory: tuple[str, Swap] | None = None  # (card kind, the swap that would undo it)
    moves: int = 0  # actions applied so far
    log: SharedLog = field(default_factory=SharedLog)  # append-only
    finished: bool = False
    result: dict[str, Any] | None = None
    last_actor: int | None = None
    undoable: bool = False

    @property
    def map(self) -> MapData:
        return MAPS[self.map_id]

    def clone(self) -> State:
        return State(
            map_id=self.map_id,
            players=self.players,
            seed=self.seed,
            aids=list(self.aids),
            followers=[list(f) for f in self.followers],
            supply=list(self.supply),
            removed=list(self.removed),
            counts={p: list(c) for p, c in self.counts.items()},
            controller=dict(self.controller),
            track=list(self.track),
            kings=list(self.kings),
            resolved=list(self.resolved),
            hands=[dict(h) for h in self.hands],
            played=[list(p) for p in self.played],
            last_play=list(self.last_play),
            plays=self.plays,
            turn=self.turn,
            passed=list(self.passed),
            passes=self.passes,
            pending=self.pending,
            swap_memory=self.swap_memory,
            moves=self.moves,
            log=SharedLog.of(self.log),  # O(1): entries are never changed once written
            finished=self.finished,
            result=self.result,
            last_actor=self.last_actor,
            undoable=self.undoable,
        )

    # -- helpers -----------------------------------------------------------
    def unresolved(self) -> list[str]:
        """Face-up tiles in track order (the first is the current struggle)."""
        return [p for p in self.track if self.controller[p] is None]

    def current(self) -> str | None:
        for p in self.track:
            if self.controller[p] is None:
                return p
        return None

    def cards_left(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def total_cards_left(self) -> int:
        return sum(sum(h.values()) for h in self.hands)

    def team_of(self, seat: int) -> list[int]:
        if self.players == 4:
            return [seat % 2, seat % 2 + 2]
        return [seat]

    def add_log(self, key: str, **args: Any) -> None:
        self.log.append({"move": self.moves + 1, "key": key, "args": args})


# ---------------------------------------------------------------------------
# Set-up


def setup(players: int, map_id: str, seed: int) -> State:
    m = MAPS[map_id]
    rng = random.Random(seed)
    aid_numbers = [1, 2, 3, 4] if players == 4 else [1, 2, 3]
    rng.shuffle(aid_numbers)
    aids = aid_numbers[:players]
    supply = [FOLLOWERS_PER_COLOUR] * 3
    removed = [0, 0, 0]
    log = SharedLog()

    def entry(key: str, **args: Any) -> None:
        log.append({"move": 0, "key": key, "args": args})

    if players == 2:
        for f in FACTIONS:
            supply[f] -= 2
            removed[f] = 2
        entry(N_("With two players, 2 followers of each faction leave the game."))
    followers = [[0, 0, 0] for _ in range(players)]
    for seat in range(players):
        aid = aids[seat]
        pair = AIDS[aid] if aid != 4 else AIDS[aids[(seat + 1) % players]]
        for f in pair:
            followers[seat][f] += 1
            supply[f] -= 1
        entry(
            N_(
                "{player} draws playing aid {aid} and gets one {faction} "
                "and one {other_faction} follower."
            ),
            player=seat,
            aid=aid,
            faction=m.faction_names[pair[0]],
            other_faction=m.faction_names[pair[1]],
        )
    counts: dict[str, list[int]] = {p.id: [0, 0, 0] for p in m.provinces}
    for p in m.provinces:
        if p.home_of is not None:
            counts[p.id][p.home_of] += p.home_followers
            supply[p.home_of] -= p.home_followers
    bag = [f for f in FACTIONS for _ in range(supply[f])]
    for p in m.provinces:
        for _ in range(p.random_followers):
            f = bag.pop(rng.randrange(len(bag)))
            counts[p.id][f] += 1
            supply[f] -= 1
    track = [p.id for p in m.provinces]
    rng.shuffle(track)
    start = min(range(players), key=lambda s: aids[s])
    hands = [{c.id: c.copies for c in m.cards} for _ in range(players)]
    st = State(
        map_id=map_id,
        players=players,
        seed=seed,
        aids=aids,
        followers=followers,
        supply=supply,
        removed=removed,
        counts=counts,
        controller={p.id: None for p in m.provinces},
        track=track,
        kings=[],
        resolved=[],
        hands=hands,
        played=[[] for _ in range(players)],
        last_play=[-1] * players,
        turn=start,
        passed=[False] * players,
        log=log,
    )
    entry(
        N_(
            "{player} holds the lowest playing aid and starts. "
            "The first power struggle is for {province}."
        ),
        player=start,
        province=province_name(st, track[0]),
    )
    return st


_PROVINCE_NAMES: dict[str, dict[str, str]] = {}  # map id -> province id -> name


def province_name(st: State, pid: str) -> str:
    names = _PROVINCE_NAMES.get(st.map_id)
    if names is None:
        names = {}
        for p in MAPS[st.map_id].provinces:
            names.setdefault(p.id, p.name)  # the first province of that id, as before
        _PROVINCE_NAMES[st.map_id] = names
    return names.get(pid, pid)


def card_data(st: State, card_id: str) -> Any:
    for c in st.map.cards:
        if c.id == card_id:
            return c
    return None


# ---------------------------------------------------------------------------
# Raw legal steps (without the last-card rule)


def tile_options(st: State, picks: tuple[Any, ...] = ()) -> list[str]:
    return [p for p in st.unresolved() if p not in st.kings and p not in picks]


def faction_targets(st: State, faction: int) -> tuple[str, ...]:
    """Ruling 11: unresolved provinces next to an anchor of ``faction``."""
    m = st.map
    home = m.home(faction)
    anchors = [p for p in m.province_ids() if st.controller[p] == faction]
    if st.controller[home] is None:
        anchors.append(home)
    out = []
    for p in m.province_ids():
        if st.controller[p] is not None:
            continue
        if any(a in m.adjacency[p] for a in anchors):
            out.append(p)
    return tuple(out)


def _colours(c: list[int]) -> list[int]:
    return [f for f in FACTIONS if c[f] > 0]


def swap_sequences(st: State, kind: str, restriction: Swap | None) -> list[tuple[Pick, ...]]:
    """Every complete swap the card allows now, as the sequence of picks that makes it.

    "1 vs 1": two picks from two different provinces, in either order.
    "2 vs 1": the two followers from one province first, then one from an adjacent province;
    if no 2-for-1 is possible, a 1-for-1 between adjacent provinces (ruling 4, 12).
    """
    return list(iter_swap_sequences(st, kind, restriction))


def iter_swap_sequences(
    st: State, kind: str, restriction: Swap | None
) -> Iterator[tuple[Pick, ...]]:
    """``swap_sequences`` one at a time: a question about the first costs only the first."""
    unres = st.unresolved()
    counts = st.counts
    if kind == SWAP21:
        found = False
        adj = st.map.adjacency
        for a in unres:
            ca = counts[a]
            if sum(ca) < 2:
                continue
            cols = _colours(ca)
            pairs = [(x, y) for x in cols for y in cols if x < y or (x == y and ca[x] >= 2)]
            for b in adj[a]:
                if st.controller[b] is not None:
                    continue
                for g in _colours(counts[b]):
                    for x, y in pairs:
                        if (
                            restriction is not None
                            and frozenset(((a, (x, y)), (b, (g,)))) == restriction
                        ):
                            continue
                        found = True
                        yield ((a, x), (a, y), (b, g))
                        if x != y:
                            yield ((a, y), (a, x), (b, g))
        if found:
            return
    for a in unres:
        cols_a = _colours(counts[a])
        if not cols_a:
            continue
        others = st.map.adjacency[a] if kind == SWAP21 else unres
        for b in others:
            if b == a or st.controller[b] is not None:
                continue
            for g in _colours(counts[b]):
                for x in cols_a:
                    if restriction is not None and frozenset(((a, (x,)), (b, (g,)))) == restriction:
                        continue
                    yield ((a, x), (b, g))


def take_options(st: State) -> list[Pick]:
    return [(p, f) for p in st.unresolved() for f in FACTIONS if st.counts[p][f] > 0]


def raw_actions(st: State) -> list[Action]:
    """The legal actions of the seat whose turn it is, ignoring the last-card rule."""
    if st.finished:
        return []
    p = st.pending
    if p is None:
        acts: list[Action] = [
            {"type": "play", "card": c.id} for c in st.map.cards if st.hands[st.turn][c.id] > 0
        ]
        acts.append({"type": "pass"})
        return acts
    fid = st.map.faction_ids
    if p.stage == "tile":
        return [{"type": "tile", "province": q} for q in tile_options(st, p.picks)]
    if p.stage == "king":
        return [{"type": "king", "province": q} for q in p.picks]
    if p.stage == "place":
        provinces = p.targets if p.kind == FACTION else tuple(st.unresolved())
        factions = sorted(set(p.to_place))
        return [
            {"type": "place", "faction": fid[f], "province": q} for f in factions for q in provinces
        ]
    if p.stage == "swap":
        k = len(p.picks)
        seen: list[Pick] = []
        for seq in iter_swap_sequences(st, p.kind, p.restriction):
            if seq[:k] == p.picks and len(seq) > k and seq[k] not in seen:
                seen.append(seq[k])
        return [{"type": "pick", "province": q, "faction": fid[f]} for q, f in seen]
    if p.stage == "take":
        return [{"type": "take", "province": q, "faction": fid[f]} for q, f in take_options(st)]
    raise AssertionError(p.stage)


# ---------------------------------------------------------------------------
# Applying steps (on a state the caller owns)


def step(st: State, seat: int, action: Action, quiet: bool = False) -> None:
    """Apply a legal ``action`` of ``seat`` to ``st`` in place."""
    log = (lambda key, **args: None) if quiet else st.add_log
    m = st.map
    t = action["type"]
    handed_over = False
    if t == "pass":
        log(N_("{player} passes."), player=seat)
        st.passed[seat] = True
        st.passes += 1
        if st.passes >= st.players:
            _resolve(st, log)
        st.turn = (seat + 1) % st.players
        handed_over = True
    elif t == "play":
        card = card_data(st, action["card"])
        st.hands[seat][card.id] -= 1
        st.played[seat].append(card.id)
        st.last_play[seat] = st.plays
        st.plays += 1
        st.passes = 0
        st.passed = [False] * st.players
        restriction = None
        if st.swap_memory is not None and st.swap_memory[0] == card.kind:
            restriction = st.swap_memory[1]
        st.swap_memory = None
        last = st.total_cards_left() == 0
        log(PLAYS, player=seat, card=card.name)
        if card.kind == KING:
            st.pending = Pending(card.id, KING, "tile", last_card=last)
        elif card.kind == FREE:
            to_place = tuple(f for f in FACTIONS if st.supply[f] > 0)
            st.pending = Pending(card.id, FREE, "place", to_place=to_place, last_card=last)
        elif card.kind == FACTION:
            f = card.faction
            targets = faction_targets(st, f)
            n = min(2, st.supply[f]) if targets else 0
            st.pending = Pending(
                card.id, FACTION, "place", to_place=(f,) * n, targets=targets, last_card=last
            )
        else:
            st.pending = Pending(
                card.id, card.kind, "swap", restriction=restriction, last_card=last
            )
        if st.pending.stage == "place" and not st.pending.to_place:
            log(N_("No follower can be placed."))
    else:
        p = st.pending
        assert p is not None
        if t == "tile":
            q = action["province"]
            picks = p.picks + (q,)
            if len(picks) == 2:
                a, b = picks
                ia, ib = st.track.index(a), st.track.index(b)
                st.track[ia], st.track[ib] = b, a
                log(
                    N_("{player} swaps the tiles of {province} and {other_province}."),
                    player=seat,
                    province=province_name(st, a),
                    other_province=province_name(st, b),
                )
                st.pending = replace(p, stage="king", picks=picks)
            else:
                log(
                    N_("{player} chooses the tile of {province}."),
                    player=seat,
                    province=province_name(st, q),
                )
                st.pending = replace(p, picks=picks)
        elif t == "king":
            q = action["province"]
            st.kings.append(q)
            log(
                N_("{player} puts a King marker on {province}."),
                player=seat,
                province=province_name(st, q),
            )
            st.pending = replace(p, stage="take", picks=())
        elif t == "place":
            f = m.faction_ids.index(action["faction"])
            q = action["province"]
            st.counts[q][f] += 1
            st.supply[f] -= 1
            rest = list(p.to_place)
            rest.remove(f)
            log(
                N_("{player} places one {faction} follower in {province}."),
                player=seat,
                faction=m.faction_names[f],
                province=province_name(st, q),
            )
            st.pending = replace(p, to_place=tuple(rest))
        elif t == "pick":
            f = m.faction_ids.index(action["faction"])
            q = action["province"]
            picks = p.picks + ((q, f),)
            log(
                N_("{player} chooses one {faction} follower in {province}."),
                player=seat,
                faction=m.faction_names[f],
                province=province_name(st, q),
            )
            complete = picks in swap_sequences(st, p.kind, p.restriction)
            if complete:
                _do_swap(st, seat, p, picks, log)
                st.pending = replace(p, stage="take", picks=())
            else:
                st.pending = replace(p, picks=picks)
        elif t == "take":
            f = m.faction_ids.index(action["faction"])
            q = action["province"]
            st.counts[q][f] -= 1
            st.followers[seat][f] += 1
            log(
                N_("{player} takes one {faction} follower from {province}."),
                player=seat,
                faction=m.faction_names[f],
                province=province_name(st, q),
            )
            st.pending = None
            st.turn = (seat + 1) % st.players
            handed_over = True
        else:  # pragma: no cover - guarded by legal_actions
            raise AssertionError(t)
    if not handed_over:
        handed_over = _advance(st, seat, log)
    st.moves += 1
    st.last_actor = seat
    st.undoable = not handed_over and not st.finished


def _do_swap(st: State, seat: int, p: Pending, picks: tuple[Pick, ...], log: Any) -> None:
    m = st.map
    if len(picks) == 3:
        (a, x), (_, y), (b, g) = picks
        give_a: tuple[int, ...] = tuple(sorted((x, y)))
    else:
        (a, x), (b, g) = picks
        give_a = (x,)
    for f in give_a:
        st.counts[a][f] -= 1
        st.counts[b][f] += 1
    st.counts[b][g] -= 1
    st.counts[a][g] += 1
    st.swap_memory = (p.kind, frozenset(((b, give_a), (a, (g,)))))
    names = [m.faction_names[f] for f in give_a]
    if len(names) == 2:
        log(
            N_(
                "{player} swaps {faction} and {second_faction} from {province} ⇄ "
                "{other_faction} from {other_province}."
            ),
            player=seat,
            faction=names[0],
            second_faction=names[1],
            province=province_name(st, a),
            other_faction=m.faction_names[g],
            other_province=province_name(st, b),
        )
    else:
        log(
            N_("{player} swaps {faction} from {province} ⇄ {other_faction} from {other_province}."),
            player=seat,
            faction=names[0],
            province=province_name(st, a),
            other_faction=m.faction_names[g],
            other_province=province_name(st, b),
        )


def _advance(st: State, seat: int, log: Any) -> bool:
    """Skip steps that cannot be carried out; return True if the turn was handed over."""
    while st.pending is not None:
        p = st.pending
        if p.stage == "tile":
            if len(tile_options(st, p.picks)) >= (1 if p.picks else 2):
                return False
            log(N_("No two tiles can be swapped."))
            st.pending = replace(p, stage="take", picks=())
        elif p.stage == "king":
            if len(st.kings) < KING_MARKERS:
                return False
            log(N_("No King marker is left."))
            st.pending = replace(p, stage="take", picks=())
        elif p.stage == "place":
            if p.to_place:
                return False
            st.pending = replace(p, stage="take", targets=())
        elif p.stage == "swap":
            if not p.picks and not swap_sequences(st, p.kind, p.restriction):
                log(N_("Nothing can be swapped."))
                st.pending = replace(p, stage="take")
            else:
                return False
        elif p.stage == "take":
            if take_options(st):
                return False
            log(N_("There is no follower to take."))
            st.pending = None
            st.turn = (seat + 1) % st.players
            return True
    return False


def _resolve(st: State, log: Any) -> None:
    """The current power struggle ends with a takeover."""
    m = st.map
    q = st.current()
    assert q is not None
    c = st.counts[q]
    top = max(c)
    leaders = [f for f in FACTIONS if c[f] == top]
    if top > 0 and len(leaders) == 1:
        st.controller[q] = leaders[0]
        log(
            N_("{faction} take control of {province}."),
            faction=m.faction_names[leaders[0]],
            province=province_name(st, q),
        )
    else:
        st.controller[q] = INVADER
        log(
            N_("No faction leads in {province}: the {invader} march in."),
            province=province_name(st, q),
            invader=m.invader_name,
        )
    for f in FACTIONS:
        st.supply[f] += c[f]
    st.counts[q] = [0, 0, 0]
    st.resolved.append(q)
    st.passes = 0
    st.passed = [False] * st.players
    invaded = sum(1 for p in st.resolved if st.controller[p] == INVADER)
    nxt = st.current()
    if invaded >= INVADER_LIMIT or nxt is None:
        st.finished = True
        st.result = score(st)
        log(st.result["reason"]["key"], **st.result["reason"]["args"])
    else:
        log(
            N_("The next power struggle is for {province}."),
            province=province_name(st, nxt),
        )


# ---------------------------------------------------------------------------
# Scoring


def _last_win(takeovers: list[int]) -> list[int]:
    last = [-1, -1, -1]
    for i, c in enumerate(takeovers):
        if c != INVADER:
            last[c] = i
    return last


def winners_only(
    players: int, followers: list[list[int]], takeovers: list[int], last_play: list[int]
) -> list[int]:
    """The winning seats for a finished game described by these figures (used by ruling 6)."""
    return _score(players, followers, takeovers, last_play)[0]


def _score(
    players: int, followers: list[list[int]], takeovers: list[int], last_play: list[int]
) -> tuple[list[int], list[int], dict[str, Any]]:
    seats = list(range(players))
    details: dict[str, Any] = {"tiebreak": None}
    if takeovers.count(INVADER) >= INVADER_LIMIT:
        details["ending"] = "invaders"
        sets = [min(followers[s]) for s in seats]
        details["sets"] = sets
        if players == 4:
            pooled = [min(followers[t][f] + followers[t + 2][f] for f in FACTIONS) for t in (0, 1)]
            details["team_sets"] = pooled
            best = max(pooled)
            teams = [t for t in (0, 1) if pooled[t] == best]
            if len(teams) > 1:
                latest = max(seats, key=lambda s: last_play[s])
                if last_play[latest] >= 0:
                    teams = [latest % 2]
                    details["tiebreak"] = "last_card"
                else:
                    details["tiebreak"] = "shared"
            winners = sorted(s for s in seats if s % 2 in teams)
        else:
            best = max(sets)
            tied = [s for s in seats if sets[s] == best]
            winners = tied
            if len(tied) > 1:
                latest = max(tied, key=lambda s: last_play[s])
                if last_play[latest] >= 0:
                    winners = [latest]
                    details["tiebreak"] = "last_card"
                else:
                    details["tiebreak"] = "shared"
        order = sorted(seats, key=lambda s: (s not in winners, -sets[s], -last_play[s], s))
        return winners, order, details
    details["ending"] = "faction"
    prov = [takeovers.count(f) for f in FACTIONS]
    last = _last_win(takeovers)
    ruling = max(FACTIONS, key=lambda f: (prov[f], last[f]))
    others = [f for f in FACTIONS if f != ruling]
    second: int | None = max(others, key=lambda f: (prov[f], last[f]))
    if prov[second] == 0:
        second = None
    details.update(ruling=ruling, second=second, provinces=prov)

    def key(s: int) -> tuple[int, int]:
        return (followers[s][ruling], followers[s][second] if second is not None else 0)

    best = max(key(s) for s in seats)
    tied = [s for s in seats if key(s) == best]
    best_first = [s for s in seats if followers[s][ruling] == best[0]]
    if len(best_first) > 1 and second is not None and len(tied) < len(best_first):
        details["tiebreak"] = "second_faction"
    if len(tied) > 1:
        oldest = min(last_play[s] for s in tied)
        tied2 = [s for s in tied if last_play[s] == oldest]
        details["tiebreak"] = "last_card" if len(tied2) == 1 else "shared"
        tied = tied2
    winners = tied
    if players == 4:
        winners = sorted(s for s in seats if s % 2 in {w % 2 for w in tied})
    details["best_players"] = sorted(tied)
    order = sorted(
        seats,
        key=lambda s: (s not in winners, s not in tied, -key(s)[0], -key(s)[1], last_play[s], s),
    )
    return winners, order, details


def score(st: State) -> dict[str, Any]:
    """The Result of a finished game (enginekit.Result)."""
    m = st.map
    takeovers = [st.controller[p] for p in st.resolved]
    winners, order, details = _score(st.players, st.followers, takeovers, st.last_play)  # type: ignore[arg-type]
    fnames = m.faction_names
    out: dict[str, Any] = {
        "ending": details["ending"],
        "tiebreak": details["tiebreak"],
        "followers": [
            {m.faction_ids[f]: st.followers[s][f] for f in FACTIONS} for s in range(st.players)
        ],
        "sets": [min(st.followers[s]) for s in range(st.players)],
        "provinces": {
            **{m.faction_ids[f]: takeovers.count(f) for f in FACTIONS},
            m.invader_id: takeovers.count(INVADER),
        },
    }
    if st.players == 4:
        out["teams"] = [[0, 2], [1, 3]]
    named = _winner_args(winners)
    if details["ending"] == "invaders":
        if st.players == 4:
            out["team_sets"] = details["team_sets"]
            best = max(details["team_sets"])
        else:
            best = max(details["sets"])
        out["ruling"] = m.invader_id
        key = {
            1: N_(
                "The {invader} hold 4 provinces and the game ends. {player} wins with {sets} "
                "complete sets of followers."
            ),
            2: N_(
                "The {invader} hold 4 provinces and the game ends. {player} and {second_player} "
                "win with {sets} complete sets of followers."
            ),
            3: N_(
                "The {invader} hold 4 provinces and the game ends. {player}, {second_player} "
                "and {third_player} share the win with {sets} complete sets of followers."
            ),
            4: N_(
                "The {invader} hold 4 provinces and the game ends. Everybody wins with {sets} "
                "complete sets of followers."
            ),
        }[len(winners)]
        reason = {"key": key, "args": {"invader": m.invader_name, "sets": best, **named}}
    else:
        ruling = details["ruling"]
        second = details["second"]
        out["ruling"] = m.faction_ids[ruling]
        out["second"] = m.faction_ids[second] if second is not None else None
        best_players = details["best_players"]
        count = st.followers[best_players[0]][ruling]
        if st.players == 4 and len(best_players) == 1:
            key = N_(
                "{faction} rule {land} with {provinces} provinces. {best_player} has the most "
                "{faction} followers ({count}): {player} and {second_player} win as a team."
            )
            reason = {"key": key, "args": {"best_player": best_players[0]}}
        else:
            key = {
                1: N_(
                    "{faction} rule {land} with {provinces} provinces. {player} wins with "
                    "{count} {faction} followers."
                ),
                2: N_(
                    "{faction} rule {land} with {provinces} provinces. {player} and "
                    "{second_player} share the win with {count} {faction} followers."
                ),
                3: N_(
                    "{faction} rule {land} with {provinces} provinces. {player}, {second_player} "
                    "and {third_player} share the win with {count} {faction} followers."
                ),
                4: N_(
                    "{faction} rule {land} with {provinces} provinces. Everybody wins with "
                    "{count} {faction} followers."
                ),
            }[len(winners)]
            reason = {"key": key, "args": {}}
        reason["args"].update(
            faction=fnames[ruling],
            land=m.land,
            provinces=takeovers.count(ruling),
            count=count,
            **named,
        )
    return {"winners": winners, "ranking": order, "reason": reason, "details": out}


def _winner_args(winners: list[int]) -> dict[str, int]:
    names = ["player", "second_player", "third_player", "fourth_player"]
    return {names[i]: s for i, s in enumerate(winners)}


# ---------------------------------------------------------------------------
# The last-card rule (ruling 6)

_WIN_CACHE: dict[tuple[Any, ...], bool] = {}


def _final_winners(st: State) -> list[int]:
    """Winners if everybody passes from now on (no card is left to play)."""
    takeovers = [st.controller[p] for p in st.resolved]
    for q in st.unresolved():
        if takeovers.count(INVADER) >= INVADER_LIMIT:
            break
        c = st.counts[q]
        top = max(c)
        leaders = [f for f in FACTIONS if c[f] == top]
        takeovers.append(leaders[0] if top > 0 and len(leaders) == 1 else INVADER)
    return winners_only(st.players, st.followers, takeovers, st.last_play)  # type: ignore[arg-type]


def _search_key(st: State, seat: int) -> tuple[Any, ...]:
    return (
        st.map_id,
        st.players,
        seat,
        st.pending,
        tuple(tuple(st.counts[p]) for p in st.track),
        tuple(st.track),
        tuple(st.kings),
        tuple(st.resolved),
        tuple(st.controller[p] for p in st.resolved),
        tuple(tuple(f) for f in st.followers),
        tuple(st.last_play),
        tuple(st.supply),
    )


def can_still_win(st: State, seat: int) -> bool:
    """Whether the card in progress can be finished so that ``seat`` (or team) wins."""
    if st.pending is None:
        return seat in _final_winners(st)
    key = _search_key(st, seat)
    hit = _WIN_CACHE.get(key)
    if hit is not None:
        return hit
    found = False
    if st.pending.stage == "take":
        # Fast path: try each take in place and undo it again.
        options = take_options(st)
        if not options:
            return seat in _final_winners(st)
        for q, f in options:
            st.counts[q][f] -= 1
            st.followers[seat][f] += 1
            found = seat in _final_winners(st)
            st.counts[q][f] += 1
            st.followers[seat][f] -= 1
            if found:
                break
        _WIN_CACHE[key] = found
        return found
    for a in raw_actions(st):
        nxt = st.clone()
        nxt.log = []
        step(nxt, seat, a, quiet=True)
        if can_still_win(nxt, seat):
            found = True
            break
    if len(_WIN_CACHE) > 200_000:
        _WIN_CACHE.clear()
    _WIN_CACHE[key] = found
    return found


def must_pass(st: State, seat: int) -> bool:
    """Whether ``legal(st, seat)`` is a pass alone (B10/R8), mostly without listing it:
    a card in progress never ends in a pass, and with cards in hand only the game's
    last card may be unplayable."""
    if st.finished or seat != st.turn or st.pending is not None:
        return False
    if st.cards_left(seat) == 0:
        return True
    if st.total_cards_left() != 1:
        return False
    return legal(st, seat) == [{"type": "pass"}]


def legal(st: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (the last-card rule included)."""
    if st.finished or seat != st.turn:
        return []
    acts = raw_actions(st)
    p = st.pending
    if p is None:
        if st.total_cards_left() != 1:
            return acts
        out = []
        for a in acts:
            if a["type"] == "play":
                nxt = st.clone()
                nxt.log = []
                step(nxt, seat, a, quiet=True)
                if not can_still_win(nxt, seat):
                    continue
            out.append(a)
        return out
    if not p.last_card:
        return acts
    out = []
    for a in acts:
        nxt = st.clone()
        nxt.log = []
        step(nxt, seat, a, quiet=True)
        if can_still_win(nxt, seat):
            out.append(a)
    return out
