"""The quick legality check of ``apply`` agrees with the list of legal actions."""

import random

import pytest

from tal.engine import ENGINE, ENGINE_V1
from tal.engine import board as B
from tal.engine.engine import ACTION_KEYS, PHASE_TYPES, _is_legal

from .tal_helpers import bot_action

VALUES = [-1, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 15, 16, 24, "1", "16", "red", "ochre", "x"]


def candidates(E, s, seat, rng):
    """Every legal action, near misses of them, and random actions of the phase's types."""
    legal = E.legal_actions(s, seat)
    out = list(legal)
    for a in legal:
        for key in a:
            if key != "type":
                for v in rng.sample(VALUES, 4) + rng.sample(B.NODES, 3):
                    out.append({**a, key: v})
    for t in PHASE_TYPES[s.phase]:
        for _ in range(20):
            out.append({k: t if k == "type" else rng.choice(VALUES + list(B.NODES))
                        for k in ACTION_KEYS[t]})  # fmt: skip
    return legal, out


@pytest.mark.parametrize("E", [ENGINE, ENGINE_V1], ids=["rules-2", "rules-1"])
def test_quick_check_matches_the_list(E):
    checked = set()
    for players, options in [(2, {}), (3, {"expert": True}), (4, {"advanced": True}), (4, {})]:
        rng = random.Random(players)
        s = E.setup(players, options, players)
        while E.result(s) is None:
            seat = rng.choice(sorted(E.active_seats(s)))
            legal, cands = candidates(E, s, seat, rng)
            for a in cands:
                if a["type"] == "move" and a.get("figure") not in ("overseer", "worker"):
                    a["figure"] = rng.choice(("overseer", "worker"))
                assert _is_legal(s, seat, a, E._landing_set(s)) == (a in legal), (s.phase, a)
                checked.add((a["type"], a in legal))
            s = E.apply(s, seat, bot_action(s, seat, rng))
    # Every kind of action with arguments was seen both legal and illegal.
    kinds = {t for t, ok in checked if ok} & {t for t, ok in checked if not ok}
    assert {"bid", "move", "plan", "submit_plan", "steal", "takeover", "build"} <= kinds, kinds
