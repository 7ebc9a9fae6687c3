"""Computer players: legal, blind to other seats' secrets, and better than chance."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bots
from bots.arena import play_game
from siam.engine import ENGINE as SIAM
from tal.engine import ENGINE as TAL

FIXED = bots.Budget(seconds=None, playouts=60)  # no clock: the decision is reproducible


def _advance(engine, state, actions: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(actions):
        if engine.result(state) is not None:
            break
        seat = min(engine.active_seats(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("engine", [SIAM, TAL], ids=["siam", "tal"])
@pytest.mark.parametrize("strength", bots.STRENGTHS)
def test_every_strength_chooses_a_legal_action(engine, strength):
    for steps in (0, 7, 30):
        state = _advance(engine, engine.setup(3, {}, 11), steps)
        seat = min(engine.active_seats(state))
        action = bots.choose(engine, state, seat, strength, budget=FIXED)
        assert action in engine.legal_actions(state, seat)


def test_unknown_strength_is_refused():
    with pytest.raises(ValueError):
        bots.choose(SIAM, SIAM.setup(2, {}, 1), 0, "cheating")


def _tal_bids_laid(seed: int = 5):
    """A Tal auction in which the first seat has laid two tiles face down."""
    state = TAL.setup(2, {}, seed)
    first = state.current
    state = TAL.apply(state, first, {"type": "bid", "group": 1, "rings": 4})
    state = TAL.apply(state, first, {"type": "bid", "group": 2, "rings": 0})
    state = TAL.apply(state, first, {"type": "end_bids"})
    return state, first, 1 - first


def _swap_secrets(state, other):
    """The same public position, with ``other``'s hidden tile values different."""
    changed = state.clone()
    laid = [bid for group in changed.bids for bid in group if bid[0] == other]
    laid[0][1], laid[1][1] = 2, 3
    changed.tiles[other] = [0, 0, 1, 1, 2, 4]
    changed.rng = random.Random(999)  # the future bag draws are secret too
    return changed


def test_other_seats_secrets_do_not_change_the_view_the_bot_starts_from():
    state, other, seat = _tal_bids_laid()
    assert TAL.view(state, seat) == TAL.view(_swap_secrets(state, other), seat)


@pytest.mark.parametrize("strength", ["greedy", "strong"])
def test_decision_is_the_same_whatever_the_other_seats_hide(strength):
    state, other, seat = _tal_bids_laid()
    changed = _swap_secrets(state, other)
    assert [b[1] for g in state.bids for b in g] != [b[1] for g in changed.bids for b in g]
    decided = bots.choose(TAL, state, seat, strength, budget=FIXED, salt="x")
    assert bots.choose(TAL, changed, seat, strength, budget=FIXED, salt="x") == decided


def test_determinize_redraws_secrets_and_keeps_the_seats_own():
    state, other, seat = _tal_bids_laid()
    changed = _swap_secrets(state, other)
    a = TAL.determinize(state, seat, random.Random(1))
    b = TAL.determinize(changed, seat, random.Random(1))
    # The copies depend only on what ``seat`` sees ...
    assert (a.tiles, a.bids, a.rng.random()) == (b.tiles, b.bids, b.rng.random())
    assert a.tiles[seat] == state.tiles[seat]
    # ... and stay consistent with it: the other seat still holds one full set of tiles.
    laid = sorted([bid[1] for g in a.bids for bid in g if bid[0] == other] + a.tiles[other])
    assert laid == sorted(state.tiles[seat])


def test_determinize_redraws_submitted_plans():
    state = _advance(TAL, TAL.setup(2, {}, 3), 0)
    while state.phase != "plan":
        seat = min(TAL.active_seats(state))
        actions = TAL.legal_actions(state, seat)
        ends = [a for a in actions if a["type"].startswith("end_")]
        state = TAL.apply(state, seat, ends[0] if ends else actions[0])
    planner, watcher = 0, 1
    moves = [a for a in TAL.legal_actions(state, planner) if a["type"] == "plan"]
    state = TAL.apply(state, planner, moves[-1])
    state = TAL.apply(
        state,
        planner,
        next(
            a
            for a in TAL.legal_actions(state, planner)
            if a["type"] == "plan" and a["index"] != moves[-1]["index"]
        ),
    )
    state = TAL.apply(state, planner, {"type": "submit_plan"})
    plans = {
        tuple(TAL.determinize(state, watcher, random.Random(n)).plans[planner]) for n in range(30)
    }
    assert len(plans) > 1  # not the real plan over and over
    assert TAL.determinize(state, planner, random.Random(0)).plans[planner] == state.plans[planner]


def test_siam_determinize_hides_only_the_seed():
    state = _advance(SIAM, SIAM.setup(3, {}, 8), 12)
    copy = SIAM.determinize(state, 1, random.Random(0))
    assert copy.seed != state.seed or state.seed == 0
    assert SIAM.view(copy, 1) == SIAM.view(state, 1)


def test_strong_beats_random_at_king_of_siam():
    # Small and reproducible (no clock); the benchmark (bench/bots.py) measures the rate.
    for game in range(2):
        strengths = ["strong", "random"] if game % 2 == 0 else ["random", "strong"]
        played = play_game(SIAM, strengths, 100 + game, budget=bots.Budget(None, 30))
        assert played.result["winners"] == [strengths.index("strong")]


def test_bots_package_stays_free_of_the_site():
    for path in Path(bots.__file__).parent.glob("*.py"):
        source = path.read_text()
        for word in ("django", "from games", "import games"):
            assert word not in source, f"{path.name} mentions {word}"
