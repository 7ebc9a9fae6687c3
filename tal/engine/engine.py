"""The rules of Tal der Könige (see the package docstring for the vocabulary)."""

from __future__ import annotations

import random
from typing import Any

from enginekit import N_, IllegalAction, Message, OptionSpec, Result, msg
from enginekit.log import SharedLog

from . import board as B
from .determinize import determinize as redraw_secrets
from .rebuild import state_from_view
from .scoring import is_complete, pyramid_points, pyramid_type
from .state import Site, TalState, own_rng, site_to_change
from .view import build_view

ACTION_KEYS: dict[str, set[str]] = {
    "bid": {"type", "group", "rings"},
    "end_bids": {"type"},
    "move": {"type", "figure", "index", "to"},
    "end_moves": {"type"},
    "plan": {"type", "index", "to"},
    "submit_plan": {"type"},
    "steal": {"type", "site", "slot"},
    "end_steal": {"type"},
    "takeover": {"type", "site"},
    "end_takeover": {"type"},
    "build": {"type", "site", "slot", "colour"},
    "end_build": {"type"},
}
PHASE_TYPES: dict[str, set[str]] = {
    "bid": {"bid", "end_bids"},
    "overseer": {"move", "end_moves"},
    "worker": {"move", "end_moves"},
    "plan": {"plan", "submit_plan"},
    "steal": {"steal", "end_steal"},
    "takeover": {"takeover", "end_takeover"},
    "build": {"build", "end_build"},
}

# The action that ends a seat's turn in a sequential phase without doing anything more.
PASS_TYPES: dict[str, str] = {
    "bid": "end_bids",
    "overseer": "end_moves",
    "worker": "end_moves",
    "steal": "end_steal",
    "takeover": "end_takeover",
    "build": "end_build",
}


# --------------------------------------------------------------------------- helpers


def _log(
    state: TalState,
    key: str,
    owner: int | None = None,
    redacted: Message | None = None,
    secret: str | None = None,
    **args: Any,
) -> None:
    """Append a log entry. ``owner`` set: only that seat sees it in full; others see
    ``redacted`` (or nothing) until the tag ``secret`` is in ``state.revealed``."""
    entry: dict[str, Any] = {"move": state.move_count, "key": key, "args": args}
    if owner is not None:
        entry["owner"] = owner
        entry["redacted"] = redacted
        entry["secret"] = secret
    state.log.append(entry)


def _figures_at(state: TalState) -> dict[str, tuple[int, str, int]]:
    """field -> (seat, kind, index) for every figure standing on a field."""
    occ: dict[str, tuple[int, str, int]] = {}
    for seat in range(state.players):
        for i, node in enumerate(state.overseers[seat]):
            if B.is_field(node):
                occ[node] = (seat, "overseer", i)
        for i, node in enumerate(state.workers[seat]):
            if B.is_field(node):
                occ[node] = (seat, "worker", i)
    return occ


def _occupied(state: TalState) -> set[str]:
    """The fields a figure stands on (``_figures_at`` without who stands there)."""
    fields = B.FIELD_SITE
    occ = {node for figures in state.overseers for node in figures if node in fields}
    occ.update(node for figures in state.workers for node in figures if node in fields)
    return occ


def _count_at_site(positions: list[str], site: int) -> int:
    return sum(1 for n in positions if B.FIELD_SITE.get(n) == site)


def free_scarabs(state: TalState, seat: int) -> int:
    return B.SCARABS - sum(1 for s in state.sites.values() if s.owner == seat)


def _to_pharaoh(state: TalState, colours: list[str]) -> tuple[int, int]:
    """Put stones on the Pharaoh pyramid; what does not fit leaves the game."""
    placed = lost = 0
    for c in colours:
        if len(state.pharaoh) < B.PHARAOH_CAPACITY:
            state.pharaoh.append(c)
            placed += 1
        else:
            state.out[c] = state.out.get(c, 0) + 1
            lost += 1
    return placed, lost


def _expand(counts: dict[str, int]) -> list[str]:
    return [c for c in B.COLOURS for _ in range(counts.get(c, 0))]


def _draw(state: TalState) -> str:
    total = sum(state.bag.values())
    r = state.rng.randrange(total)
    for c in B.COLOURS:
        if r < state.bag[c]:
            state.bag[c] -= 1
            return c
        r -= state.bag[c]
    raise AssertionError("bag count mismatch")


def _top_level(site: Site) -> int | None:
    """Highest level holding a stone."""
    for lv in range(len(site.levels) - 1, -1, -1):
        if any(c is not None for c in site.levels[lv]):
            return lv
    return None


def _build_level(site: Site) -> int:
    """Lowest level that is not complete."""
    for lv, stones in enumerate(site.levels):
        if any(c is None for c in stones):
            return lv
    return len(site.levels)


def _slot_classes(state: TalState, site: Site, level: int) -> list[list[int]]:
    """Groups of slots of a level that are alike for scoring (the player chooses between
    groups, not within one). Expert variant: every slot matters for stripes."""
    n = len(site.levels[level])
    if state.expert:
        return [[k] for k in range(n)]
    if site.size == "large" and level == 0:
        return [[k for k in range(n) if k != 4], [4]]
    return [list(range(n))]


def _can_steal_at(state: TalState, seat: int, num: int) -> bool:
    site = state.sites[num]
    if not site.in_play or site.owner is None or site.owner == seat or site.finished:
        return False
    if site.stone_count() == 0:
        return False
    mine_o = _count_at_site(state.overseers[seat], num)
    owner_o = _count_at_site(state.overseers[site.owner], num)
    mine_w = _count_at_site(state.workers[seat], num)
    return mine_o > owner_o and mine_w > 0


def steal_sites(state: TalState, seat: int) -> list[int]:
    return [num for num in sorted(state.sites) if _can_steal_at(state, seat, num)]


def can_take_over(state: TalState, seat: int, num: int) -> bool:
    site = state.sites[num]
    if not site.in_play or site.owner is None or site.owner == seat or site.finished:
        return False
    if free_scarabs(state, seat) < 1:
        return False
    o = site.owner
    return _count_at_site(state.overseers[seat], num) > _count_at_site(
        state.overseers[o], num
    ) and _count_at_site(state.workers[seat], num) > _count_at_site(state.workers[o], num)


def _maybe_claim(state: TalState, seat: int, node: str, index: int) -> None:
    site_no = B.FIELD_SITE.get(node)
    if site_no is None:
        return
    site = state.sites[site_no]
    if not site.in_play or site.owner is not None:
        return
    if free_scarabs(state, seat) < 1:
        _log(
            state,
            N_("{player} has no scarab left to claim site {site}."),
            player=seat,
            site=site_no,
        )
        return
    site_to_change(state, site_no).owner = seat
    _log(
        state,
        N_("{player}'s overseer {number} claims site {site}."),
        player=seat,
        number=index + 1,
        site=site_no,
    )


# --------------------------------------------------------------------------- legal actions


def _move_actions(
    state: TalState, seat: int, kind: str, landing: frozenset[str]
) -> list[dict[str, Any]]:
    """``landing``: where a figure may end (``TalEngine.landing`` as a set); the targets
    come in the order of ``B.NODES``, as ``landing`` lists them."""
    figures = state.overseers[seat] if kind == "overseer" else state.workers[seat]
    left = B.STEPS - state.steps_used
    occupied = _occupied(state)
    if state.round == 1:  # not onto a field of another player's site
        for num, site in state.sites.items():
            if site.owner not in (None, seat):
                occupied.update(B.SITE_FIELDS[num])
    out: list[dict[str, Any]] = []
    for i, pos in enumerate(figures):
        if i in state.moved or left < 0:
            continue
        for node in B.REACH[pos][left]:
            if node not in occupied and node in landing:
                out.append({"type": "move", "figure": kind, "index": i, "to": node})
    out.append({"type": "end_moves"})
    return out


def _plan_actions(state: TalState, seat: int, landing: frozenset[str]) -> list[dict[str, Any]]:
    """``landing``: where an overseer may be planned to (``TalEngine.landing`` as a set);
    the targets in the order of ``B.NODES``."""
    out: list[dict[str, Any]] = []
    pos = state.overseers[seat]
    plan = state.plans[seat]
    for i in range(B.OVERSEERS):
        budget = B.plan_budget(pos, plan, i)
        if budget < 0:
            continue
        planned = plan[i]
        for node in B.WITHIN[pos[i]][min(budget, B.STEPS)]:
            if node != planned and node in landing:
                out.append({"type": "plan", "index": i, "to": node})
    # Every overseer must be planned, staying put included, so the number of
    # plan actions tells the others nothing about the plan (ruling 18).
    if None not in plan:
        out.append({"type": "submit_plan"})
    return out


def _bid_actions(state: TalState, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    values = sorted(set(state.tiles[seat]))
    for g, bids in enumerate(state.bids):
        laid = sum(r for s, r in bids if s == seat)
        for v in values:
            if laid + v <= B.MAX_RINGS_PER_GROUP:
                out.append({"type": "bid", "group": g + 1, "rings": v})
    out.append({"type": "end_bids"})
    return out


def _steal_slots(state: TalState, seat: int, num: int) -> list[int]:
    """The slots ``seat`` may take a stone from at site ``num`` (one of ``steal_sites``)."""
    site = state.sites[num]
    budget = B.STONES_PER_WORKER * _count_at_site(state.workers[seat], num)
    if state.turn_used.get(num, 0) >= budget:
        return []
    lv = _top_level(site)
    assert lv is not None
    stones = site.levels[lv]
    slots: list[int] = []
    for cls in _slot_classes(state, site, lv):
        seen: set[str] = set()
        for k in cls:
            c = stones[k]
            if c is not None and c not in seen:
                seen.add(c)
                slots.append(k)
    return sorted(slots)


def _steal_actions(state: TalState, seat: int) -> list[dict[str, Any]]:
    return [
        {"type": "steal", "site": num, "slot": k}
        for num in steal_sites(state, seat)
        for k in _steal_slots(state, seat, num)
    ]


def _takeover_actions(state: TalState, seat: int) -> list[dict[str, Any]]:
    return [
        {"type": "takeover", "site": num}
        for num in sorted(state.sites)
        if can_take_over(state, seat, num)
    ]


def _build_colours(state: TalState, seat: int) -> list[str]:
    return [c for c in B.COLOURS if state.supply[seat].get(c, 0) > 0]


def _build_slots(state: TalState, seat: int, num: int) -> list[int]:
    """The slots of site ``num`` where ``seat`` may build now (none if not allowed)."""
    site = state.sites[num]
    if site.owner != seat or not site.in_play or site.finished:
        return []
    cap = B.STONES_PER_WORKER * _count_at_site(state.workers[seat], num)
    if state.turn_used.get(num, 0) >= cap:
        return []
    lv = _build_level(site)
    stones = site.levels[lv]
    slots = []
    for cls in _slot_classes(state, site, lv):
        free = [k for k in cls if stones[k] is None]
        if free:
            slots.append(free[0])
    return sorted(slots)


def _build_actions(state: TalState, seat: int) -> list[dict[str, Any]]:
    colours = _build_colours(state, seat)
    if not colours:
        return []
    return [
        {"type": "build", "site": num, "slot": k, "colour": c}
        for num in sorted(state.sites)
        for k in _build_slots(state, seat, num)
        for c in colours
    ]


def _is_legal(state: TalState, seat: int, a: dict[str, Any], landing: frozenset[str]) -> bool:
    """``a in legal_actions(state, seat)`` without building the list (``landing``: where
    a figure may end a move or a plan, ``TalEngine.landing``).

    The caller (``_check``) has made sure that ``seat`` is active, that ``a`` has exactly
    the keys of its type, that the type belongs to the phase and that every value is an
    int or a str (never a bool): list membership compares with ``==``, so an int never
    matches a str here. Each branch repeats the conditions of the matching ``_*_actions``
    function for one action (tests/tal/test_tal_legality.py compares both).
    """
    t = a["type"]
    if t in ("end_bids", "end_moves", "end_steal", "end_takeover", "end_build"):
        return True
    if t == "bid":
        g, rings = a["group"], a["rings"]
        if not isinstance(g, int) or not 1 <= g <= len(state.bids):
            return False
        if not isinstance(rings, int) or rings not in state.tiles[seat]:
            return False
        laid = sum(r for s, r in state.bids[g - 1] if s == seat)
        return laid + rings <= B.MAX_RINGS_PER_GROUP
    if t == "move":
        kind, i, node = a["figure"], a["index"], a["to"]
        if kind != state.phase or not isinstance(node, str) or node not in landing:
            return False
        figures = state.overseers[seat] if kind == "overseer" else state.workers[seat]
        if not isinstance(i, int) or not 0 <= i < len(figures) or i in state.moved:
            return False
        pos = figures[i]
        if node == pos or B.DIST[pos][node] > B.STEPS - state.steps_used:
            return False
        if node in _occupied(state):
            return False
        if state.round == 1:
            s = B.FIELD_SITE.get(node)
            if s is not None and state.sites[s].owner not in (None, seat):
                return False
        return True
    if t == "plan":
        i, node = a["index"], a["to"]
        if not isinstance(i, int) or not 0 <= i < B.OVERSEERS:
            return False
        if not isinstance(node, str) or node not in landing:
            return False
        pos = state.overseers[seat]
        plan = state.plans[seat]
        other = 1 - i
        budget = B.STEPS - B.DIST[pos[other]][plan[other] or pos[other]]
        return node != plan[i] and B.DIST[pos[i]][node] <= budget
    if t == "submit_plan":
        return None not in state.plans[seat]
    if t == "steal":
        num, slot = a["site"], a["slot"]
        if not isinstance(num, int) or num not in state.sites or not isinstance(slot, int):
            return False
        return _can_steal_at(state, seat, num) and slot in _steal_slots(state, seat, num)
    if t == "takeover":
        num = a["site"]
        return isinstance(num, int) and num in state.sites and can_take_over(state, seat, num)
    if t == "build":
        num, slot, colour = a["site"], a["slot"], a["colour"]
        if not isinstance(num, int) or num not in state.sites or not isinstance(slot, int):
            return False
        return colour in _build_colours(state, seat) and slot in _build_slots(state, seat, num)
    return False


# --------------------------------------------------------------------------- the flow


def _start_round(state: TalState) -> None:
    state.round += 1
    state.auction_revealed = False
    state.plans_revealed = False
    state.winners = []
    state.tiles = [list(B.BID_TILES) for _ in range(state.players)]
    _log(
        state,
        N_("Round {round} begins; {player} is the start player."),
        round=state.round,
        player=state.start_player,
    )
    groups = min(state.players + 1, sum(state.bag.values()) // B.GROUP_SIZE)
    own_rng(state)  # clones share the generator: draw from a copy (see TalState.clone)
    state.groups = [[_draw(state) for _ in range(B.GROUP_SIZE)] for _ in range(groups)]
    state.offered = [list(g) for g in state.groups]
    state.bids = [[] for _ in range(groups)]
    if not groups:
        state.last_round = True
        _log(
            state,
            N_(
                "The bag cannot fill a group of five: no auction this round, "
                "and the game ends after it."
            ),
        )
        _begin_overseers(state)
        return
    for g, stones in enumerate(state.groups):
        _log(
            state,
            N_(
                "Group {group}: {red} red, {grey} grey, {black} black, {white} white, "
                "{ochre} ochre."
            ),
            group=g + 1,
            **{c: stones.count(c) for c in B.COLOURS},
        )
    _begin_sequential(state, "bid")


def _begin_sequential(state: TalState, phase: str) -> None:
    state.phase = phase
    state.turn_idx = 0
    _seek(state)


def _reset_turn(state: TalState) -> None:
    state.moved = []
    state.steps_used = 0
    state.turn_used = {}


def _needs_turn(state: TalState, seat: int) -> bool:
    phase = state.phase
    if phase in ("bid", "overseer", "worker"):
        return True
    if phase == "steal":
        return bool(_steal_actions(state, seat))
    if phase == "takeover":
        return bool(_takeover_actions(state, seat))
    if phase == "build":
        if not any(state.supply[seat].values()):
            return False
        if _build_actions(state, seat):
            return True
        _dump_supply(state, seat)
        return False
    raise AssertionError(phase)


def _seek(state: TalState) -> None:
    """Give the turn to the next seat in turn order that has something to decide."""
    order = state.order()
    _reset_turn(state)
    while state.turn_idx < state.players:
        seat = order[state.turn_idx]
        if _needs_turn(state, seat):
            state.current = seat
            return
        state.turn_idx += 1
    state.current = None
    _end_phase(state)


def _next_turn(state: TalState) -> None:
    state.turn_idx += 1
    _seek(state)


def _end_phase(state: TalState) -> None:
    phase = state.phase
    if phase == "bid":
        _reveal_bids(state)
        _begin_overseers(state)
    elif phase == "overseer":
        _begin_sequential(state, "worker")
    elif phase == "worker":
        _begin_sequential(state, "steal")
    elif phase == "steal":
        _begin_sequential(state, "takeover")
    elif phase == "takeover":
        _begin_sequential(state, "build")
    elif phase == "build":
        _end_round(state)
    else:
        raise AssertionError(phase)


def _begin_overseers(state: TalState) -> None:
    if state.round == 1:
        _begin_sequential(state, "overseer")
        return
    state.phase = "plan"
    state.current = None
    _reset_turn(state)
    state.plans = [[None] * B.OVERSEERS for _ in state.overseers]
    state.submitted = [False] * state.players


def _reveal_bids(state: TalState) -> None:
    tag = f"bids-{state.round}"
    state.revealed.append(tag)
    state.auction_revealed = True
    state.winners = []
    for g, bids in enumerate(state.bids):
        totals: dict[int, int] = {}
        for seat, rings in bids:  # insertion order = order of first tile
            totals[seat] = totals.get(seat, 0) + rings
        best = max(totals.values(), default=0)
        winner = next((s for s, t in totals.items() if t == best), None) if best > 0 else None
        state.winners.append(winner)
        stones = state.groups[g]
        if winner is not None:
            for c in stones:
                state.supply[winner][c] = state.supply[winner].get(c, 0) + 1
            _log(
                state,
                N_("{player} wins group {group} (rings: {rings})."),
                player=winner,
                group=g + 1,
                rings=best,
            )
        elif state.advanced:
            placed, lost = _to_pharaoh(state, stones)
            _log(
                state,
                N_(
                    "Group {group} is not sold: {placed} stones go onto the Pharaoh pyramid, "
                    "{lost} leave the game."
                ),
                group=g + 1,
                placed=placed,
                lost=lost,
            )
        else:
            for c in stones:
                state.bag[c] += 1
            _log(state, N_("Group {group} is not sold and goes back into the bag."), group=g + 1)
    state.groups = [[] for _ in state.groups]
    state.tiles = [list(B.BID_TILES) for _ in range(state.players)]


def _execute_plans(state: TalState) -> None:
    state.revealed.append(f"plans-{state.round}")
    state.plans_revealed = True
    for seat in state.order():
        plan = state.plans[seat]
        pos = state.overseers[seat]
        steps = sum(B.DIST[pos[i]][plan[i]] for i in range(B.OVERSEERS))
        _log(
            state,
            N_("{player} planned overseer 1 to {first} and overseer 2 to {second}."),
            player=seat,
            first=plan[0],
            second=plan[1],
        )
        if steps > B.STEPS:
            _log(
                state,
                N_(
                    "{player}'s plan is too long (steps: {steps}): "
                    "both overseers stay where they are."
                ),
                player=seat,
                steps=steps,
            )
            continue
        state.overseers[seat] = ["", ""]  # lift both
        occupied = _figures_at(state)
        for i in range(B.OVERSEERS):
            target = plan[i]
            if B.is_field(target) and target in occupied:
                area = B.FIELD_AREA[target]
                _log(
                    state,
                    N_(
                        "Field {field} is occupied: {player}'s overseer {number} goes to "
                        "area {area}."
                    ),
                    field=target,
                    player=seat,
                    number=i + 1,
                    area=area,
                )
                state.overseers[seat][i] = area
                continue
            state.overseers[seat][i] = target
            if B.is_field(target):
                occupied[target] = (seat, "overseer", i)
            _maybe_claim(state, seat, target, i)


def _dump_supply(state: TalState, seat: int) -> None:
    stones = _expand(state.supply[seat])
    if not stones:
        return
    state.supply[seat] = {}
    placed, lost = _to_pharaoh(state, stones)
    _log(
        state,
        N_(
            "{player}'s unbuilt stones go onto the Pharaoh pyramid "
            "(placed: {placed}, out of the game: {lost})."
        ),
        player=seat,
        placed=placed,
        lost=lost,
    )


def _end_round(state: TalState) -> None:
    state.current = None
    in_play = [s for s in state.sites.values() if s.in_play]
    reason = None
    if len(state.pharaoh) >= B.PHARAOH_CAPACITY:
        reason = "pharaoh"
    elif all(s.finished for s in in_play):
        reason = "pyramids"
    elif state.last_round:
        reason = "bag"
    if reason:
        state.phase = "over"
        state.end_reason = reason
        _log(state, END_REASONS[reason])
        return
    state.start_player = (state.start_player + 1) % state.players
    _start_round(state)


END_REASONS: dict[str, str] = {
    "pharaoh": N_("The Pharaoh pyramid is finished: the game ends."),
    "pyramids": N_("All pyramids are finished: the game ends."),
    "bag": N_("The bag could not fill a group of five: the game ends."),
}


# --------------------------------------------------------------------------- the engine


class TalEngine:
    """``rules_version`` 2 (the current rules) keeps figures off the fields of sites out
    of play (ruling 19); 1 lets them stand there, as games started before it go on to."""

    slug = "tal"
    name = "Tal der Könige"
    min_players = 2
    max_players = 4

    def __init__(self, rules_version: int = 2) -> None:
        if rules_version not in (1, 2):
            raise ValueError(f"no Tal der Könige rules version {rules_version}")
        self.rules_version = rules_version

    def landing(self, state: TalState) -> tuple[str, ...]:
        """The nodes a figure may end a move or a plan on, in ``B.NODES`` order."""
        return B.NODES if self.rules_version == 1 else B.LANDING_NODES[state.players]

    def _landing_set(self, state: TalState) -> frozenset[str]:
        return B.NODE_SET if self.rules_version == 1 else B.LANDING_SETS[state.players]

    # options ------------------------------------------------------------------
    def options_schema(self) -> list[OptionSpec]:
        return [
            {
                "name": "advanced",
                "label": N_("Advanced builders: unsold stones go onto the Pharaoh pyramid"),
                "type": "bool",
                "default": False,
                "help": N_(
                    "Groups nobody bought are built into the Pharaoh pyramid at once "
                    "instead of going back into the bag."
                ),
            },
            {
                "name": "expert",
                "label": N_("Pyramid experts: stripe pyramids score"),
                "type": "bool",
                "default": False,
                "help": N_(
                    "Pyramids of two colours in diagonal stripes score 2 (small) or 7 (large)."
                ),
            },
        ]

    def validate_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("players must be an integer")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Tal der Könige is played by 2 to 4 players, not {players}")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("options must be a dict")
        unknown = set(options) - {"advanced", "expert"}
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(map(str, unknown)))}")
        out: dict[str, Any] = {}
        for name in ("advanced", "expert"):
            value = options.get(name, False)
            if not isinstance(value, bool):
                raise ValueError(f"option {name} must be true or false")
            out[name] = value
        return out

    # set-up -------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], seed: int) -> TalState:
        opts = self.validate_options(players, options)
        rng = random.Random(seed)
        in_play = set(B.sites_in_play(players))
        sites = {
            num: Site(num, size, num in in_play, None, B.empty_levels(size))
            for num, (size, _suns, _f) in B.SITES.items()
        }
        state = TalState(
            players=players,
            advanced=opts["advanced"],
            expert=opts["expert"],
            seed=seed,
            rng=rng,
            bag=dict.fromkeys(B.COLOURS, B.STONES_PER_COLOUR),
            sites=sites,
            overseers=[[B.CENTRE] * B.OVERSEERS for _ in range(players)],
            workers=[[B.CENTRE] * B.WORKERS for _ in range(players)],
            tiles=[list(B.BID_TILES) for _ in range(players)],
            supply=[{} for _ in range(players)],
            out={},
            log=SharedLog(),
        )
        state.start_player = rng.randrange(players)
        out_of_play = sorted(set(B.SITES) - in_play)
        if out_of_play:
            _log(
                state,
                N_("Sites out of play: {sites}."),
                sites=", ".join(map(str, out_of_play)),
            )
        _start_round(state)
        return state

    # whose turn ---------------------------------------------------------------
    def active_seats(self, state: TalState) -> frozenset[int]:
        if state.phase == "over":
            return _NOBODY
        if state.phase == "plan":
            return frozenset(s for s in range(state.players) if not state.submitted[s])
        return _NOBODY if state.current is None else _SEAT[state.current]

    def legal_actions(self, state: TalState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        phase = state.phase
        if phase == "bid":
            return _bid_actions(state, seat)
        if phase in ("overseer", "worker"):
            return _move_actions(state, seat, phase, self._landing_set(state))
        if phase == "plan":
            return _plan_actions(state, seat, self._landing_set(state))
        if phase == "steal":
            return _steal_actions(state, seat) + [{"type": "end_steal"}]
        if phase == "takeover":
            return _takeover_actions(state, seat) + [{"type": "end_takeover"}]
        if phase == "build":
            return _build_actions(state, seat) + [{"type": "end_build"}]
        return []

    # applying -----------------------------------------------------------------
    def apply(self, state: TalState, seat: int, action: dict[str, Any]) -> TalState:
        self._check(state, seat, action)
        return self.apply_legal(state, seat, action)

    def apply_legal(self, state: TalState, seat: int, action: dict[str, Any]) -> TalState:
        """``apply`` for an action known to be legal (one of ``legal_actions(state, seat)``):
        the same new state, without checking the action again. For computer players,
        which apply tens of thousands of actions a decision, each taken from the list
        (see :mod:`enginekit`). An action that is not legal gives a state that no game
        can reach: everything else must use ``apply``."""
        new = state.clone()
        new.move_count += 1
        before = (new.phase, new.round, new.current)
        _HANDLERS[action["type"]](self, new, seat, action)
        new.last_seat = seat
        new.last_undoable = (new.phase, new.round, new.current) == before and seat in (
            self.active_seats(new)
        )
        return new

    def _check(self, state: TalState, seat: int, action: Any) -> None:
        if state.phase == "over":
            raise IllegalAction(N_("The game is over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction(N_("There is no such seat."))
        if (
            not isinstance(action, dict)
            or not isinstance(action.get("type"), str)
            or action["type"] not in ACTION_KEYS
            or set(action) != ACTION_KEYS[action["type"]]
            or any(isinstance(v, bool) or not isinstance(v, int | str) for v in action.values())
        ):
            raise IllegalAction(N_("This is not a valid action."))
        if seat not in self.active_seats(state):
            raise IllegalAction(N_("It is not your turn."))
        if action["type"] not in PHASE_TYPES[state.phase]:
            raise IllegalAction(N_("You cannot do that now."))
        if _is_legal(state, seat, action, self._landing_set(state)):
            return
        raise self._diagnose(state, seat, action)

    def _diagnose(self, state: TalState, seat: int, a: dict[str, Any]) -> IllegalAction:
        t = a["type"]
        if t == "bid":
            g = a["group"]
            if not isinstance(g, int) or not 1 <= g <= len(state.bids):
                return IllegalAction(N_("There is no group {group}."), group=g)
            if a["rings"] not in state.tiles[seat]:
                return IllegalAction(
                    N_("You have no tile left with this value (rings: {rings})."), rings=a["rings"]
                )
            return IllegalAction(
                N_("At most {max} rings may be bid on one group."), max=B.MAX_RINGS_PER_GROUP
            )
        if t in ("move", "plan"):
            node = a["to"]
            if node not in B.NODE_SET:
                return IllegalAction(N_("There is no field or area {node}."), node=str(node))
            if node not in self._landing_set(state):
                return IllegalAction(
                    N_("Site {site} is out of play: no figure stands on its fields."),
                    site=B.FIELD_SITE[node],
                )
            if not isinstance(a["index"], int) or not 0 <= a["index"] < (
                B.WORKERS if a.get("figure") == "worker" else B.OVERSEERS
            ):
                return IllegalAction(N_("There is no such figure."))
            if t == "move":
                if a["figure"] != state.phase:
                    return IllegalAction(N_("You cannot move that figure now."))
                if a["index"] in state.moved:
                    return IllegalAction(N_("That figure has already moved this round."))
                if node in _figures_at(state):
                    return IllegalAction(N_("Field {node} is occupied."), node=node)
                pos = (state.overseers if a["figure"] == "overseer" else state.workers)[seat]
                if node == pos[a["index"]]:
                    return IllegalAction(N_("The figure already stands there."))
                if B.DIST[pos[a["index"]]][node] > B.STEPS - state.steps_used:
                    return IllegalAction(
                        N_("That is too far (steps left: {steps})."),
                        steps=B.STEPS - state.steps_used,
                    )
                return IllegalAction(
                    N_("In the first round no figure may stand on another player's site.")
                )
            return IllegalAction(N_("Your overseers may move at most 6 steps together."))
        if t == "steal":
            return IllegalAction(
                N_(
                    "You cannot take that stone: you need more overseers than the owner and "
                    "a worker at the site (2 stones per worker), the stone must be on the top "
                    "level, and finished pyramids are safe."
                )
            )
        if t == "takeover":
            return IllegalAction(
                N_(
                    "You cannot take over that site: you need more overseers and more workers "
                    "there than the owner, a free scarab, and the pyramid must not be finished."
                )
            )
        if t == "build":
            return IllegalAction(
                N_(
                    "You cannot put that stone there: build on your own sites, 2 stones per "
                    "worker there, level by level, with stones you hold."
                )
            )
        return IllegalAction(N_("You cannot do that now."))

    # action handlers (state is already a copy) ------------------------------------
    def _do_bid(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        g, rings = a["group"], a["rings"]
        state.tiles[seat].remove(rings)
        state.bids[g - 1].append([seat, rings])
        _log(
            state,
            N_("{player} lays a tile on group {group} (rings: {rings})."),
            owner=seat,
            redacted=msg(N_("{player} lays a tile on group {group}."), player=seat, group=g),
            secret=f"bids-{state.round}",
            player=seat,
            rings=rings,
            group=g,
        )

    def _do_end_bids(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        _log(state, N_("{player} has finished bidding."), player=seat)
        _next_turn(state)

    def _do_move(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        kind, i, to = a["figure"], a["index"], a["to"]
        figures = state.overseers[seat] if kind == "overseer" else state.workers[seat]
        frm = figures[i]
        steps = B.DIST[frm][to]
        figures[i] = to
        state.moved.append(i)
        state.steps_used += steps
        key = (
            N_("{player} moves overseer {number} from {start} to {to} (steps: {steps}).")
            if kind == "overseer"
            else N_("{player} moves worker {number} from {start} to {to} (steps: {steps}).")
        )
        _log(state, key, player=seat, number=i + 1, start=frm, to=to, steps=steps)
        if kind == "overseer":
            _maybe_claim(state, seat, to, i)

    def _do_end_moves(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        _next_turn(state)

    def _do_plan(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        i, to = a["index"], a["to"]
        state.plans[seat][i] = to
        _log(
            state,
            N_("{player} plans overseer {number} to {to}."),
            owner=seat,
            player=seat,
            number=i + 1,
            to=to,
        )

    def _do_submit_plan(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        state.submitted[seat] = True
        _log(state, N_("{player} has submitted a plan."), player=seat)
        if all(state.submitted):
            _execute_plans(state)
            _begin_sequential(state, "worker")

    def _do_steal(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        num, slot = a["site"], a["slot"]
        site = site_to_change(state, num)
        lv = _top_level(site)
        assert lv is not None
        colour = site.levels[lv][slot]
        assert colour is not None
        site.levels[lv][slot] = None
        state.supply[seat][colour] = state.supply[seat].get(colour, 0) + 1
        state.turn_used[num] = state.turn_used.get(num, 0) + 1
        _log(
            state,
            N_("{player} takes a stone from site {site} of {owner_player} ({colour})."),
            player=seat,
            colour=colour,
            site=num,
            owner_player=site.owner,
        )

    def _do_end_steal(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        _next_turn(state)

    def _do_takeover(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        site = site_to_change(state, a["site"])
        _log(
            state,
            N_("{player} takes over site {site} from {owner_player}."),
            player=seat,
            site=site.number,
            owner_player=site.owner,
        )
        site.owner = seat

    def _do_end_takeover(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        _next_turn(state)

    def _do_build(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        num, slot, colour = a["site"], a["slot"], a["colour"]
        site = site_to_change(state, num)
        lv = _build_level(site)
        site.levels[lv][slot] = colour
        state.supply[seat][colour] -= 1
        if not state.supply[seat][colour]:
            del state.supply[seat][colour]
        state.turn_used[num] = state.turn_used.get(num, 0) + 1
        _log(
            state,
            N_("{player} builds a stone on site {site} ({colour})."),
            player=seat,
            colour=colour,
            site=num,
        )
        if is_complete(site.size, site.levels):
            site.finished = True
            _log(state, N_("{player} finishes the pyramid on site {site}."), player=seat, site=num)

    def _do_end_build(self, state: TalState, seat: int, a: dict[str, Any]) -> None:
        _dump_supply(state, seat)
        _next_turn(state)

    # taking back ----------------------------------------------------------------
    def can_undo(self, state: TalState, seat: int) -> bool:
        return state.last_seat == seat and state.last_undoable and state.phase != "over"

    def reveals(self, before: TalState, after: TalState) -> bool:
        """Whether the step from ``before`` to ``after`` revealed the bids or the plans
        (``revealed`` grows) or drew a new market (the generator moved on)."""
        if len(after.revealed) != len(before.revealed) or after.round != before.round:
            return True
        return after.rng is not before.rng and after.rng.getstate() != before.rng.getstate()

    def secret(self, state: TalState, seat: int, action: dict[str, Any]) -> bool:
        """A plan click: only its player sees it (the others learn of the plan when it
        is handed in, ``submit_plan``, and of its targets when the plans are carried out)."""
        return state.phase == "plan" and action.get("type") == "plan"

    def pass_action(self, state: TalState, seat: int) -> dict[str, Any] | None:
        """The ``end_*`` action of a sequential phase; none while plans are written
        (a plan must name its targets before it can be handed in)."""
        end = PASS_TYPES.get(state.phase)
        if end is None or state.current != seat:
            return None
        return {"type": end}

    # result -------------------------------------------------------------------
    def scores(self, state: TalState) -> list[int]:
        points = [0] * state.players
        for site in state.sites.values():
            if site.owner is not None and site.in_play:
                points[site.owner] += pyramid_points(site.size, site.levels, state.expert)
        return points

    def result(self, state: TalState) -> Result | None:
        if state.phase != "over":
            return None
        points = self.scores(state)
        ranking = sorted(range(state.players), key=lambda s: (-points[s], s))
        best = points[ranking[0]]
        pyramids = []
        for num, site in sorted(state.sites.items()):
            if site.owner is not None and site.in_play and site.finished:
                pyramids.append(
                    {
                        "site": num,
                        "player": site.owner,
                        "size": site.size,
                        "type": pyramid_type(site.size, site.levels, state.expert),
                        "points": pyramid_points(site.size, site.levels, state.expert),
                    }
                )
        return {
            "winners": [s for s in ranking if points[s] == best],
            "ranking": ranking,
            "reason": msg(END_REASONS[state.end_reason or "pharaoh"]),
            "details": {"points": points, "pyramids": pyramids, "rounds": state.round},
        }

    def determinize(self, state: TalState, seat: int, rng: random.Random) -> TalState:
        """A copy with what ``seat`` cannot see redrawn at random (for computer players)."""
        return redraw_secrets(state, seat, rng)

    def from_view(self, view: dict[str, Any], seat: int, rng: random.Random) -> TalState:
        """A state ``seat`` cannot tell from the one its ``view`` shows, for a computer
        player that has only the view (an API client): what ``determinize`` would
        redraw is drawn from ``rng``, the rest read from the view (:mod:`.rebuild`)."""
        state = state_from_view(view, seat, rng)
        result = view.get("result")
        if result is not None:
            key = result["reason"]["key"]
            state.end_reason = next(r for r, text in END_REASONS.items() if text == key)
        return state

    # view ---------------------------------------------------------------------
    def view(self, state: TalState, viewer: int | None) -> dict[str, Any]:
        return build_view(self, state, viewer)


_HANDLERS = {kind: getattr(TalEngine, "_do_" + kind) for kind in ACTION_KEYS}
_NOBODY: frozenset[int] = frozenset()
_SEAT = tuple(frozenset({seat}) for seat in range(TalEngine.max_players))

ENGINE = TalEngine()
ENGINE_V1 = TalEngine(rules_version=1)  # the games started before ruling 19
