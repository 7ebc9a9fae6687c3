"""The full (secret-holding) game state. Never shown directly: see ``view``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from enginekit.log import SharedLog


@dataclass
class Site:
    """A building site. States share their Site objects (see ``TalState.clone``): the
    engine never changes one in place once a state has been copied, it puts a changed
    copy (``changed``) in its place."""

    number: int
    size: str  # "small" | "large"
    in_play: bool
    owner: int | None = None
    levels: list[list[str | None]] = field(default_factory=list)
    finished: bool = False

    def stone_count(self) -> int:
        return sum(1 for lv in self.levels for c in lv if c is not None)

    def changed(self) -> Site:
        """A copy to change: its own levels, everything else alike."""
        new = Site.__new__(Site)
        new.__dict__.update(self.__dict__)
        new.levels = [list(lv) for lv in self.levels]
        return new


@dataclass
class TalState:
    players: int
    advanced: bool
    expert: bool
    seed: int
    rng: random.Random
    bag: dict[str, int]
    sites: dict[int, Site]
    overseers: list[list[str]]
    workers: list[list[str]]
    tiles: list[list[int]]  # bid tiles each seat still holds this auction (secret)
    supply: list[dict[str, int]]  # stones each seat holds (public)
    round: int = 0
    start_player: int = 0
    phase: str = "bid"  # bid | overseer | plan | worker | steal | takeover | build | over
    turn_idx: int = 0  # position in the turn order of a sequential phase
    current: int | None = None
    # auction
    groups: list[list[str]] = field(default_factory=list)  # stones still on the market
    offered: list[list[str]] = field(default_factory=list)  # what each group held (display)
    bids: list[list[list[int]]] = field(default_factory=list)  # per group: [seat, rings] in order
    auction_revealed: bool = False
    winners: list[int | None] = field(default_factory=list)
    # per-turn bookkeeping of a sequential phase
    moved: list[int] = field(default_factory=list)
    steps_used: int = 0
    turn_used: dict[int, int] = field(default_factory=dict)  # site -> stones stolen/built
    # secret overseer plans
    plans: list[list[str | None]] = field(default_factory=list)  # None: not planned yet
    submitted: list[bool] = field(default_factory=list)
    plans_revealed: bool = False
    # stones elsewhere
    pharaoh: list[str] = field(default_factory=list)
    out: dict[str, int] = field(default_factory=dict)
    last_round: bool = False
    end_reason: str | None = None
    # history
    log: SharedLog = field(default_factory=SharedLog)  # append-only, entries never change
    revealed: list[str] = field(default_factory=list)  # secret tags that are now public
    move_count: int = 0
    last_seat: int | None = None
    last_undoable: bool = False

    def order(self) -> list[int]:
        return [(self.start_player + k) % self.players for k in range(self.players)]

    def clone(self) -> TalState:
        """A copy that shares what is never changed in place: the log's storage (entries
        are never changed once written; see :class:`enginekit.log.SharedLog`), the
        sites and the random number generator.

        Sites: the engine changes a site only through ``site_to_change``, which puts a
        copy of it into the changing state first, so a Site object a state shares with
        its copies is never changed (copying all fifteen on every ``apply`` was the
        largest part of its cost). Code outside the engine that changes a site of a
        copied state in place changes it in every copy sharing it: replace it instead.

        Sharing ``rng`` is safe because the engine never draws from a state's generator
        in place: the only draws (a new round's market, ``_start_round``) first replace
        it by a copy holding the same internal state (``own_rng``), so the stream of
        draws is exactly the one a fresh copy per clone gave, and parent and child stay
        independent. Copying it on every ``apply`` cost more than the rest of ``apply``.
        Code outside the engine that draws from ``state.rng`` should call ``own_rng``
        first, or set a new generator (as ``determinize`` does).
        """
        new = TalState.__new__(TalState)
        new.__dict__.update(self.__dict__)
        new.bag = dict(self.bag)
        new.sites = dict(self.sites)
        new.overseers = [list(x) for x in self.overseers]
        new.workers = [list(x) for x in self.workers]
        new.tiles = [list(x) for x in self.tiles]
        new.supply = [dict(x) for x in self.supply]
        new.groups = [list(x) for x in self.groups]
        new.offered = [list(x) for x in self.offered]
        new.bids = [[list(b) for b in g] for g in self.bids]
        new.winners = list(self.winners)
        new.moved = list(self.moved)
        new.turn_used = dict(self.turn_used)
        new.plans = [list(x) for x in self.plans]
        new.submitted = list(self.submitted)
        new.pharaoh = list(self.pharaoh)
        new.out = dict(self.out)
        new.log = SharedLog.of(self.log)
        new.revealed = list(self.revealed)
        return new


def site_to_change(state: TalState, number: int) -> Site:
    """Site ``number`` of ``state``, as a copy of its own that may be changed."""
    site = state.sites[number].changed()
    state.sites[number] = site
    return site


def own_rng(state: TalState) -> random.Random:
    """Give ``state`` its own copy of its (possibly shared) generator and return it."""
    rng = random.Random()
    rng.setstate(state.rng.getstate())
    state.rng = rng
    return rng
