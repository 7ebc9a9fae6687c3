"""A state rebuilt from one seat's view (``ENGINE.from_view``) is a position that seat
cannot tell from the real one: the same legal actions, the same view, playable on; the
other seats' secrets drawn as ``determinize`` draws them, never read."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from tal.engine import ENGINE, ENGINE_V1
from tests.tal.tal_helpers import bot_action

VARIANTS = [{}, {"advanced": True}, {"expert": True}, {"advanced": True, "expert": True}]


def random_position(engine, players: int, options: dict, seed: int, steps: int):
    rng = random.Random(seed)
    state = engine.setup(players, options, seed)
    for _ in range(steps):
        if engine.result(state) is not None:
            break
        seat = rng.choice(sorted(engine.active_seats(state)))
        state = engine.apply(state, seat, bot_action(state, seat, rng))
    return state


def as_sent(view):
    """The view as an API client reads it: through JSON."""
    return json.loads(json.dumps(view))


# (engine, state): both rules versions (ruling 19), 2..4 seats, every variant.
positions = hs.tuples(
    hs.sampled_from([ENGINE, ENGINE_V1]),
    hs.integers(ENGINE.min_players, ENGINE.max_players),
    hs.sampled_from(VARIANTS),
    hs.integers(0, 10**6),
    hs.integers(0, 400),
).map(lambda drawn: (drawn[0], random_position(*drawn)))


@settings(max_examples=25, deadline=None)
@given(position=positions, rng_seed=hs.integers(0, 10**6))
def test_the_rebuilt_state_is_a_position_the_seat_cannot_tell_from_the_real_one(position, rng_seed):
    engine, state = position
    for seat in range(state.players):
        view = as_sent(engine.view(state, seat))
        rebuilt = engine.from_view(view, seat, random.Random(rng_seed))
        assert engine.legal_actions(rebuilt, seat) == [e["action"] for e in view["actions"]]
        assert engine.legal_actions(rebuilt, seat) == engine.legal_actions(state, seat)
        assert as_sent(engine.view(rebuilt, seat)) == view
        assert engine.result(rebuilt) == engine.result(state)
        # ... and it plays on, every seat, as any state does.
        play = random.Random(rng_seed)
        for _ in range(300):
            if engine.result(rebuilt) is not None:
                break
            mover = play.choice(sorted(engine.active_seats(rebuilt)))
            rebuilt = engine.apply(rebuilt, mover, bot_action(rebuilt, mover, play))


@settings(max_examples=15, deadline=None)
@given(position=positions, rng_seed=hs.integers(0, 10**6))
def test_the_secrets_are_drawn_as_determinize_draws_them(position, rng_seed):
    _engine, state = position
    for seat in range(state.players):
        rebuilt = ENGINE.from_view(ENGINE.view(state, seat), seat, random.Random(rng_seed))
        sampled = ENGINE.determinize(state, seat, random.Random(rng_seed))
        assert rebuilt.tiles == [sorted(t) for t in sampled.tiles]
        assert rebuilt.rng.getstate() == sampled.rng.getstate()
        if state.phase == "plan" or state.plans_revealed:  # else last round's, not shown
            assert rebuilt.plans == sampled.plans
        for group, bids in zip(rebuilt.bids, sampled.bids, strict=True):
            for other in range(state.players):
                assert [r for s, r in group if s == other] == [r for s, r in bids if s == other]


def _bids_laid():
    """An auction in which the first seat has laid two tiles face down (4 and 0 rings)."""
    state = ENGINE.setup(2, {}, 5)
    first = state.current
    state = ENGINE.apply(state, first, {"type": "bid", "group": 1, "rings": 4})
    state = ENGINE.apply(state, first, {"type": "bid", "group": 2, "rings": 0})
    state = ENGINE.apply(state, first, {"type": "end_bids"})
    return state, first, 1 - first


def _plan_handed_in():
    """Round 2's plans: seat 0 has handed in its plan, seat 1 has not."""
    state = random_position(ENGINE, 2, {}, 3, 0)
    rng = random.Random(0)
    while state.phase != "plan":
        seat = min(ENGINE.active_seats(state))
        state = ENGINE.apply(state, seat, bot_action(state, seat, rng))
    for index in (0, 1):
        action = next(a for a in ENGINE.legal_actions(state, 0) if a.get("index") == index)
        state = ENGINE.apply(state, 0, action)
    state = ENGINE.apply(state, 0, {"type": "submit_plan"})
    return state, 0, 1


def _same(a, b) -> bool:
    fields = {**vars(a), "rng": a.rng.getstate(), "log": list(a.log)}
    return fields == {**vars(b), "rng": b.rng.getstate(), "log": list(b.log)}


def test_the_other_seats_tiles_and_the_bag_are_never_read():
    state, other, seat = _bids_laid()
    changed = state.clone()
    laid = [bid for group in changed.bids for bid in group if bid[0] == other]
    laid[0][1], laid[1][1] = 2, 3
    changed.tiles[other] = [0, 0, 1, 1, 2, 4]
    changed.rng = random.Random(999)
    assert ENGINE.view(changed, seat) == ENGINE.view(state, seat)
    a = ENGINE.from_view(ENGINE.view(state, seat), seat, random.Random(7))
    b = ENGINE.from_view(ENGINE.view(changed, seat), seat, random.Random(7))
    assert _same(a, b)
    # The draws keep to what the seat sees: one full set of tiles, laid and held.
    held_and_laid = a.tiles[other] + [r for group in a.bids for s, r in group if s == other]
    assert sorted(held_and_laid) == sorted(state.tiles[seat])


def test_a_plan_handed_in_is_never_read():
    state, planner, seat = _plan_handed_in()
    changed = state.clone()
    changed.plans[planner] = list(reversed(changed.overseers[planner]))
    assert changed.plans[planner] != state.plans[planner]
    assert ENGINE.view(changed, seat) == ENGINE.view(state, seat)
    a = ENGINE.from_view(ENGINE.view(state, seat), seat, random.Random(7))
    b = ENGINE.from_view(ENGINE.view(changed, seat), seat, random.Random(7))
    assert _same(a, b)
    # Drawn afresh, not kept; the planner's own plan is its own.
    drawn = {
        tuple(ENGINE.from_view(ENGINE.view(state, seat), seat, random.Random(n)).plans[planner])
        for n in range(20)
    }
    assert len(drawn) > 1
    own = ENGINE.from_view(ENGINE.view(state, planner), planner, random.Random(0))
    assert own.plans[planner] == state.plans[planner]


def test_a_view_of_another_seat_is_refused():
    state, first, other = _bids_laid()
    with pytest.raises(ValueError):
        ENGINE.from_view(ENGINE.view(state, first), other, random.Random(0))
