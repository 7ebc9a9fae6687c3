"""Build King of Siam positions by hand for rule tests."""

from __future__ import annotations

from typing import Any

from siam.engine import ENGINE
from siam.engine.core import INVADER, State
from siam.engine.maps import FOLLOWERS_PER_COLOUR, MAPS, TOTAL_FOLLOWERS

LETTERS = {"y": 0, "r": 1, "b": 2, "g": 2}

PASS = {"type": "pass"}


def colours(spec: str | list[int] | dict[str, int], map_id: str = "siam") -> list[int]:
    """``"yyr"`` -> [2, 1, 0]; also accepts [y, r, b] lists and {faction id: n} dicts."""
    if isinstance(spec, list):
        return list(spec)
    if isinstance(spec, dict):
        ids = MAPS[map_id].faction_ids
        return [spec.get(ids[f], 0) for f in range(3)]
    out = [0, 0, 0]
    for ch in spec:
        out[LETTERS[ch]] += 1
    return out


def position(
    players: int = 3,
    map_id: str = "siam",
    provinces: dict[str, Any] | None = None,
    controllers: dict[str, str] | None = None,
    track: list[str] | None = None,
    followers: list[Any] | None = None,
    hands: list[Any] | None = None,
    played: list[list[str]] | None = None,
    last_play: list[int] | None = None,
    turn: int = 0,
    kings: list[str] | None = None,
    supply: Any = None,
) -> State:
    """A position built directly. Unlisted provinces are empty and unresolved.

    ``controllers``: province -> faction id or invader id, in takeover order.
    ``hands``: per seat a list of card ids (default: the full set).
    The supply is whatever keeps 54 followers in the game unless given.
    """
    st = ENGINE.setup(players, {"map": map_id}, 0)
    m = st.map
    ids = list(m.faction_ids)
    st.log = []
    st.counts = {p: [0, 0, 0] for p in m.province_ids()}
    for pid, spec in (provinces or {}).items():
        st.counts[pid] = colours(spec, map_id)
    st.controller = {p: None for p in m.province_ids()}
    st.resolved = []
    for pid, who in (controllers or {}).items():
        st.controller[pid] = INVADER if who == m.invader_id else ids.index(who)
        st.resolved.append(pid)
        assert sum(st.counts[pid]) == 0, "resolved provinces are empty"
    st.track = list(track) if track is not None else list(m.province_ids())
    assert sorted(st.track) == sorted(m.province_ids())
    if followers is not None:
        st.followers = [colours(f, map_id) for f in followers]
    if hands is not None:
        st.hands = []
        for h in hands:
            d = {c.id: 0 for c in m.cards}
            for cid in h:
                d[cid] += 1
            st.hands.append(d)
    if played is not None:
        st.played = [list(p) for p in played]
    if last_play is not None:
        st.last_play = list(last_play)
        st.plays = max(last_play) + 1
    st.kings = list(kings or [])
    st.turn = turn
    if supply is None:
        st.supply = [
            FOLLOWERS_PER_COLOUR
            - st.removed[f]
            - sum(c[f] for c in st.counts.values())
            - sum(fl[f] for fl in st.followers)
            for f in range(3)
        ]
    else:
        st.supply = colours(supply, map_id)
    assert min(st.supply) >= 0, st.supply
    if supply is not None:  # keep 54 followers: the rest counts as removed
        st.removed = [
            FOLLOWERS_PER_COLOUR
            - st.supply[f]
            - sum(c[f] for c in st.counts.values())
            - sum(fl[f] for fl in st.followers)
            for f in range(3)
        ]
        assert min(st.removed) >= 0
    assert total_followers(st) == TOTAL_FOLLOWERS
    return st


def total_followers(st: State) -> int:
    return (
        sum(st.supply)
        + sum(st.removed)
        + sum(sum(c) for c in st.counts.values())
        + sum(sum(f) for f in st.followers)
    )


def run(st: State, *actions: dict[str, Any]) -> State:
    """Apply actions, each by the seat whose turn it is."""
    for a in actions:
        (seat,) = ENGINE.active_seats(st)
        st = ENGINE.apply(st, seat, a)
    return st


def legal(st: State) -> list[dict[str, Any]]:
    (seat,) = ENGINE.active_seats(st)
    return ENGINE.legal_actions(st, seat)


def play(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card}


def pick(province: str, faction: str) -> dict[str, Any]:
    return {"type": "pick", "province": province, "faction": faction}


def take(province: str, faction: str) -> dict[str, Any]:
    return {"type": "take", "province": province, "faction": faction}


def place(faction: str, province: str) -> dict[str, Any]:
    return {"type": "place", "faction": faction, "province": province}


def tile(province: str) -> dict[str, Any]:
    return {"type": "tile", "province": province}


def king(province: str) -> dict[str, Any]:
    return {"type": "king", "province": province}


def pass_all(st: State) -> State:
    """Everybody passes once in a row (ends the current struggle if no card is played)."""
    for _ in range(st.players):
        st = run(st, PASS)
    return st


def counts(st: State, province: str) -> dict[str, int]:
    ids = st.map.faction_ids
    return {ids[f]: st.counts[province][f] for f in range(3)}


def types(actions: list[dict[str, Any]]) -> set[str]:
    return {a["type"] for a in actions}
