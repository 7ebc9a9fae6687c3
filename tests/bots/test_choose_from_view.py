"""A player who holds only its view (a program playing through the API) decides as the
site's computer player decides on the real state: ``choose_from_view`` searches a
position the engine rebuilds from the view (``from_view``)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import bots
from bots.common import pick_random
from siam.engine import ENGINE as SIAM
from tal.engine import ENGINE as TAL
from tests.fake_engine import CountEngine

FIXED = bots.Budget(seconds=None, playouts=30)  # no clock: the decision is reproducible


def random_position(engine, players: int, seed: int, steps: int, options=None):
    rng = random.Random(seed)
    state = engine.setup(players, options or {}, seed)
    for _ in range(steps):
        if engine.result(state) is not None:
            break
        seat = rng.choice(sorted(engine.active_seats(state)))
        state = engine.apply(state, seat, pick_random(engine.legal_actions(state, seat), rng))
    return state


def as_sent(view):
    """The view as an API client reads it: through JSON."""
    return json.loads(json.dumps(view))


@settings(max_examples=12, deadline=None)
@given(
    engine=hs.sampled_from([SIAM, TAL]),
    players=hs.integers(2, 4),
    seed=hs.integers(0, 10**6),
    steps=hs.integers(0, 250),
)
def test_greedy_decides_from_the_view_as_from_the_state(engine, players, seed, steps):
    state = random_position(engine, players, seed, steps)
    for seat in sorted(engine.active_seats(state)):
        view = as_sent(engine.view(state, seat))
        picked = bots.choose_from_view(engine, view, seat, "greedy", salt="g")
        assert picked in [entry["action"] for entry in view["actions"]]
        assert picked == bots.choose(engine, state, seat, "greedy", salt="g")


@pytest.mark.parametrize(
    "engine, players, steps",
    [(SIAM, 2, 9), (SIAM, 4, 30), (TAL, 2, 3), (TAL, 3, 70)],
    ids=["siam-2", "siam-4", "tal-2-bids", "tal-3"],
)
def test_strong_decides_from_the_view_as_from_the_state(engine, players, steps):
    state = random_position(engine, players, 17, steps)
    seat = min(engine.active_seats(state))
    view = as_sent(engine.view(state, seat))
    picked = bots.choose_from_view(engine, view, seat, "strong", budget=FIXED, salt="s")
    assert picked == bots.choose(engine, state, seat, "strong", budget=FIXED, salt="s")


def test_the_other_seats_secrets_do_not_change_the_decision():
    state = TAL.setup(2, {}, 5)
    first = state.current
    for rings, group in ((4, 1), (0, 2)):
        state = TAL.apply(state, first, {"type": "bid", "group": group, "rings": rings})
    state = TAL.apply(state, first, {"type": "end_bids"})
    seat = 1 - first
    changed = state.clone()
    laid = [bid for group in changed.bids for bid in group if bid[0] == first]
    laid[0][1], laid[1][1] = 2, 3
    changed.tiles[first] = [0, 0, 1, 1, 2, 4]
    for strength, budget in (("greedy", None), ("strong", FIXED)):
        decided = [
            bots.choose_from_view(TAL, TAL.view(s, seat), seat, strength, budget=budget, salt="x")
            for s in (state, changed)
        ]
        assert decided[0] == decided[1]


def test_an_engine_that_cannot_rebuild_a_position_plays_only_at_random():
    engine = CountEngine()
    state = engine.setup(2, {}, 1)
    seat = min(engine.active_seats(state))
    view = engine.view(state, seat)
    offered = [entry["action"] for entry in view["actions"]]
    assert bots.choose_from_view(engine, view, seat, "random") in offered
    with pytest.raises(ValueError):
        bots.choose_from_view(engine, view, seat, "greedy")
