"""The ``ENGINE`` object: the enginekit protocol on top of :mod:`siam.engine.core`."""

from __future__ import annotations

import copy
from typing import Any, NoReturn

from enginekit import N_, IllegalAction, Message, OptionSpec, Result, msg
from enginekit.log import mapped

from . import core
from .core import INVADER, Action, State
from .maps import FACTION, FACTIONS, FREE, KING, KING_MARKERS, MAPS, SWAP11, SWAP21, MapData
from .rebuild import state_from_view

_LABELS = {
    "pass": N_("Pass"),
    "play": N_("Play {card}"),
    "tile": N_("Swap the tile of {province}"),
    "king": N_("King marker on {province}"),
    "place": N_("Place one {faction} follower in {province}"),
    "pick": N_("The {faction} follower in {province}"),
    "take": N_("Take one {faction} follower from {province}"),
}


PASS: Action = {"type": "pass"}


class SiamEngine:
    slug = "siam"
    name = "King of Siam"
    rules_version = 1
    min_players = 2
    max_players = 4

    # -- options -------------------------------------------------------------
    def options_schema(self) -> list[OptionSpec]:
        return [
            {
                "name": "map",
                "label": N_("Map"),
                "type": "choice",
                "choices": [["siam", N_("King of Siam")], ["saba", N_("King of Saba")]],
                "default": "siam",
                "help": N_("King of Saba is played on a map of Ethiopia with the same rules."),
            }
        ]

    def validate_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("players must be a number")
        if not self.min_players <= players <= self.max_players:
            raise ValueError("King of Siam is played by 2 to 4 players")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("options must be a dict")
        unknown = set(options) - {"map"}
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(map(str, unknown)))}")
        map_id = options.get("map", "siam")
        if map_id not in MAPS:
            raise ValueError(f"unknown map: {map_id!r}")
        return {"map": map_id}

    # -- play ------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        opts = self.validate_options(players, options)
        return core.setup(players, opts["map"], seed)

    def active_seats(self, state: State) -> frozenset[int]:
        if state.finished:
            return frozenset()
        return frozenset({state.turn})

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return core.legal(state, seat)

    def forced_action(self, state: State) -> tuple[int, Action] | None:
        """The move the rules leave no choice about, if any (B10/R8).

        A player without cards, or holding only a last card that cannot win,
        must pass; the site makes that pass at once instead of waiting days.
        """
        if state.finished:
            return None
        if core.must_pass(state, state.turn):
            return state.turn, dict(PASS)
        return None

    def apply(self, state: State, seat: int, action: Action) -> State:
        if state.finished:
            raise IllegalAction(N_("The game is over."))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(N_("This move is not understood."))
        if seat != state.turn:
            raise IllegalAction(N_("It is not your turn."))
        if action not in core.legal(state, seat):
            _refuse(state, seat, action)
        new = state.clone()
        core.step(new, seat, action)
        return new

    def can_undo(self, state: State, seat: int) -> bool:
        return state.last_actor == seat and state.undoable and not state.finished

    def reveals(self, before: State, after: State) -> bool:
        """Nothing is ever revealed or drawn after the set-up: the seed is the only secret."""
        return False

    def pass_action(self, state: State, seat: int) -> Action | None:
        """A pass, at the start of a turn (a card once played must be carried out)."""
        if state.finished or seat != state.turn or state.pending is not None:
            return None
        return dict(PASS)

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        """A copy for a computer player: only the seed is secret, and play never draws again."""
        new = state.clone()
        new.seed = 0
        return new

    def from_view(self, view: dict[str, Any], seat: int, rng: Any) -> State:
        """The state ``view`` (this engine's ``view(state, seat)``) shows, for a computer
        player that has only the view: the game has no secret to draw (``rng`` is not
        used), so it is the real state but for its seed."""
        return state_from_view(view, seat)

    def variant_name(self, options: dict[str, Any]) -> str:
        """The name players know the game by on the chosen map."""
        return MAPS[options.get("map", "siam")].name

    def teammates(self, players: int, seat: int) -> list[int]:
        """The seats that win or lose with ``seat``, itself included (seats 0+2 and 1+3)."""
        return sorted({seat, (seat + 2) % 4}) if players == 4 else [seat]

    def chat_allowed(self, players: int, options: dict[str, Any]) -> bool:
        """Partners may not talk during the team game (rulings, 9)."""
        return players != 4

    def result(self, state: State) -> Result | None:
        return copy.deepcopy(state.result)  # type: ignore[return-value]

    def view(self, state: State, viewer: int | None) -> dict[str, Any]:
        return build_view(state, viewer)


def _refuse(st: State, seat: int, action: Action) -> NoReturn:
    """Raise IllegalAction explaining why ``action`` is not legal now."""
    t = action.get("type")
    p = st.pending

    def out(key: str, **args: Any) -> NoReturn:
        raise IllegalAction(key, **args)

    if p is not None and t in ("play", "pass"):
        out(N_("Finish the card you are playing first."))
    if t == "play":
        card = action.get("card")
        data = core.card_data(st, card) if isinstance(card, str) else None
        if data is None:
            out(N_("There is no such card."))
        if st.hands[seat].get(data.id, 0) == 0:
            out(N_("You have no {card} card left."), card=data.name)
        if st.total_cards_left() == 1:
            out(N_("The last card of the game may only be played if it wins the game for you."))
    if p is None and t not in ("play", "pass"):
        out(N_("Play a card or pass."))
    if p is not None and t != _stage_type(p):
        out(_prompt_key(st, p)[0], **_prompt_key(st, p)[1])
    if p is not None and p.last_card:
        for a in core.raw_actions(st):
            if a == action:
                out(N_("With the last card of the game, this choice would not win the game."))
    if t == "place":
        out(N_("That follower cannot be placed there."))
    if t == "take":
        out(N_("There is no such follower to take there."))
    if t == "pick":
        if p is not None and p.restriction is not None:
            out(
                N_("That follower cannot be chosen: the swap may not undo the previous {card}."),
                card=core.card_data(st, p.card).name,
            )
        out(N_("That follower cannot be chosen for this swap."))
    if t in ("tile", "king"):
        out(N_("That tile cannot be chosen."))
    out(N_("This move is not possible now."))


def _stage_type(p: core.Pending) -> str:
    return {"tile": "tile", "king": "king", "place": "place", "swap": "pick", "take": "take"}[
        p.stage
    ]


def _is_fallback(st: State, p: core.Pending) -> bool:
    """A "2 vs 1" card that can only make a 1-for-1 swap now (ruling 4): the first
    sequence says which kind all of them are."""
    if p.kind != SWAP21:
        return False
    first = next(core.iter_swap_sequences(st, p.kind, p.restriction), None)
    return first is not None and len(first) == 2


def _prompt_key(
    st: State, p: core.Pending, fallback: bool | None = None
) -> tuple[str, dict[str, Any]]:
    """The prompt for the card in progress (``fallback``: ``_is_fallback``, if known)."""
    m = st.map
    card = core.card_data(st, p.card).name
    pn = core.province_name
    if p.stage == "tile":
        if not p.picks:
            return N_("{card}: choose a face-up tile without a King marker."), {"card": card}
        return N_("{card}: choose the tile to swap with {province}."), {
            "card": card,
            "province": pn(st, p.picks[0]),
        }
    if p.stage == "king":
        return N_("{card}: choose the tile that gets the King marker."), {"card": card}
    if p.stage == "place":
        if p.kind == FREE:
            return N_("{card}: place one follower of each faction shown, in any order."), {
                "card": card,
            }
        f = p.to_place[0]
        return N_("{card}: place one {faction} follower ({count} to place)."), {
            "card": card,
            "faction": m.faction_names[f],
            "count": len(p.to_place),
        }
    if p.stage == "swap":
        k = len(p.picks)
        if p.kind == SWAP11:
            if k == 0:
                return N_("{card}: choose a follower to swap."), {"card": card}
            q, f = p.picks[0]
            return N_(
                "{card}: choose a follower in another province to swap with the {faction} "
                "follower in {province}."
            ), {"card": card, "faction": m.faction_names[f], "province": pn(st, q)}
        if fallback is None:
            fallback = _is_fallback(st, p)
        if fallback:
            if k == 0:
                return N_(
                    "{card}: no 2-for-1 swap is possible; choose a follower to swap with one "
                    "in a neighbouring province."
                ), {"card": card}
            q, f = p.picks[0]
            return N_(
                "{card}: choose a follower next to {province} to swap with the {faction} follower."
            ), {"card": card, "faction": m.faction_names[f], "province": pn(st, q)}
        if k == 0:
            return N_("{card}: choose the first of two followers from one province."), {
                "card": card
            }
        q, f = p.picks[0]
        if k == 1:
            return N_("{card}: choose the second follower in {province}."), {
                "card": card,
                "province": pn(st, q),
            }
        return N_("{card}: choose one follower in a province next to {province}."), {
            "card": card,
            "province": pn(st, q),
        }
    return N_("Take a follower from any province still contested."), {}


def _prompt(st: State, seat: int, actions: list[Action], fallback: bool | None = None) -> Message:
    p = st.pending
    if p is None:
        if st.cards_left(seat) == 0:
            return msg(N_("You have no cards left: pass."))
        if len(actions) == 1:
            return msg(N_("Your last card may only be played if it wins the game: pass."))
        return msg(N_("Play an action card or pass."))
    key, args = _prompt_key(st, p, fallback)
    return msg(key, **args)


def _label(st: State, action: Action) -> Message:
    m = st.map
    t = action["type"]
    args: dict[str, Any] = {}
    if "card" in action:
        args["card"] = core.card_data(st, action["card"]).name
    if "province" in action:
        args["province"] = core.province_name(st, action["province"])
    if "faction" in action:
        args["faction"] = m.faction_names[m.faction_ids.index(action["faction"])]
    return msg(_LABELS[t], **args)


def _log_entry_view(e: dict[str, Any]) -> dict[str, Any]:
    # Memoised on the log's storage (enginekit.log): a view costs O(new entries).
    return {"move": e["move"], "key": e["key"], "args": dict(e["args"])}


class _MapView:
    """The parts of a view that depend on the map only, built once per map: views are
    read-only (see enginekit), so every view shares them."""

    def __init__(self, m: MapData) -> None:
        self.map = m
        self.factions = [
            {
                "id": m.faction_ids[f],
                "name": m.faction_names[f],
                "colour": m.colours[f],
                "home": m.home(f),
            }
            for f in FACTIONS
        ]
        self.invader = {"id": m.invader_id, "name": m.invader_name}
        self.cards = [
            {"id": c.id, "name": c.name, "kind": c.kind, "copies": c.copies} for c in m.cards
        ]
        self.adjacency = {q: list(v) for q, v in m.adjacency.items()}
        self.card_names = {c.id: c.name for c in m.cards}


_MAP_VIEWS: dict[str, _MapView] = {}
# build_view pairs faction ids with counts by position
assert FACTIONS == tuple(range(len(FACTIONS)))


def _map_view(m: MapData) -> _MapView:
    found = _MAP_VIEWS.get(m.id)
    if found is None or found.map is not m:
        found = _MAP_VIEWS[m.id] = _MapView(m)
    return found


def build_view(st: State, viewer: int | None) -> dict[str, Any]:
    m = st.map
    fid = m.faction_ids
    static = _map_view(m)

    def fdict(c: list[int]) -> dict[str, int]:
        # {fid[f]: c[f] for f in FACTIONS}, paired in C (FACTIONS are 0, 1, 2; any
        # further counts are left out as there)
        return dict(zip(fid, c, strict=False))

    def ctrl(c: int | None) -> str | None:
        if c is None:
            return None
        return m.invader_id if c == INVADER else fid[c]

    cur = None if st.finished else st.current()
    position = {q: i + 1 for i, q in enumerate(st.track)}
    provinces = [
        {
            "id": p.id,
            "name": p.name,
            "home_of": fid[p.home_of] if p.home_of is not None else None,
            "followers": fdict(st.counts[p.id]),
            "controller": ctrl(st.controller[p.id]),
            "resolved": st.controller[p.id] is not None,
            "track_position": position[p.id],
            "king": p.id in st.kings,
            "current": p.id == cur,
            "adjacent": static.adjacency[p.id],
        }
        for p in m.provinces
    ]
    track = [
        {
            "position": i + 1,
            "province": q,
            "name": core.province_name(st, q),
            "face_up": st.controller[q] is None,
            "king": q in st.kings,
            "current": q == cur,
            "controller": ctrl(st.controller[q]),
        }
        for i, q in enumerate(st.track)
    ]
    card_names = static.card_names
    seats = []
    for s in range(st.players):
        seats.append(
            {
                "seat": s,
                "aid": st.aids[s],
                "followers": fdict(st.followers[s]),
                "sets": min(st.followers[s]),
                "cards_left": {c.id: st.hands[s][c.id] for c in m.cards},
                "cards_left_count": st.cards_left(s),
                "played": list(st.played[s]),
                "top_card": st.played[s][-1] if st.played[s] else None,
                "passed": st.passed[s],
                "active": not st.finished and s == st.turn,
                "team": s % 2 if st.players == 4 else None,
                "partner": (s + 2) % 4 if st.players == 4 else None,
            }
        )
    pending = None
    p = st.pending
    fallback = p is not None and p.stage == "swap" and _is_fallback(st, p)
    if p is not None:
        picks: list[Any]
        if p.kind == KING:
            picks = list(p.picks)
        else:
            picks = [{"province": q, "faction": fid[f]} for q, f in p.picks]
        pending = {
            "seat": st.turn,
            "card": p.card,
            "card_name": card_names[p.card],
            "kind": p.kind,
            "stage": p.stage,
            "picks": picks,
            "to_place": [fid[f] for f in p.to_place],
            "targets": list(p.targets) if p.kind == FACTION else [],
            "fallback": fallback,
            "no_undo": _swap_view(st, p.restriction) if p.restriction else None,
            "last_card": p.last_card,
        }
    takeovers = [{"province": q, "controller": ctrl(st.controller[q])} for q in st.resolved]
    active = sorted(ENGINE.active_seats(st))
    actions: list[dict[str, Any]] = []
    prompt: Message | None = None
    if viewer is not None and viewer in active:
        # One seat acts at a time: its own actions also say whether it must pass.
        acts = core.legal(st, viewer)
        auto_pass = acts == [PASS]
        actions = [{"action": a, "label": _label(st, a)} for a in acts]
        prompt = _prompt(st, viewer, acts, fallback)
    else:  # the others are not shown the actions: whether it must pass is enough
        auto_pass = bool(active) and core.must_pass(st, active[0])
    view: dict[str, Any] = {
        "game": "siam",
        "map": m.id,
        "map_name": m.name,
        "land": m.land,
        "players": st.players,
        "viewer": viewer,
        "factions": static.factions,
        "invader": static.invader,
        "cards": static.cards,
        "adjacency": static.adjacency,
        "provinces": provinces,
        "track": track,
        "current_province": cur,
        "struggle": min(len(st.resolved) + 1, len(st.track)) if not st.finished else None,
        "takeovers": takeovers,
        "king_markers_left": KING_MARKERS - len(st.kings),
        "supply": fdict(st.supply),
        "removed": fdict(st.removed),
        "seats": seats,
        "teams": [[0, 2], [1, 3]] if st.players == 4 else None,
        "turn": None if st.finished else st.turn,
        "passes": st.passes,
        "pending": pending,
        "no_undo": _no_undo_view(st),
        "cards_left_total": st.total_cards_left(),
        "auto_pass": auto_pass,
        "move_count": st.moves,
        "active_seats": active,
        "prompt": prompt,
        "actions": actions,
        "log": mapped(st.log, "view", _log_entry_view),
        "finished": st.finished,
    }
    if st.finished:
        view["result"] = copy.deepcopy(st.result)
    return view


def _swap_view(st: State, swap: core.Swap) -> list[dict[str, Any]]:
    fid = st.map.faction_ids
    return sorted(
        ({"province": q, "gives": [fid[f] for f in cols]} for q, cols in swap),
        key=lambda d: d["province"],
    )


def _no_undo_view(st: State) -> dict[str, Any] | None:
    """The swap that the next card would be forbidden to make, if it is the same card."""
    if st.swap_memory is None:
        return None
    kind, swap = st.swap_memory
    card = next(c for c in st.map.cards if c.kind == kind)
    return {"card": card.id, "forbidden": _swap_view(st, swap)}


ENGINE = SiamEngine()
