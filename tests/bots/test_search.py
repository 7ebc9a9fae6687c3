"""What the faster search relies on: ``apply_legal`` is ``apply`` without the check, a
state's shared sites never change under it, and a Tal seat's own turn offers the same
choices in every position the seat cannot tell from the real one (policies.fixed_choices)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from bots import common, policies
from bots.common import ends_turn
from tal.engine import ENGINE as TAL
from tal.engine import ENGINE_V1 as TAL_V1


def _snapshot(state):
    """Everything a Tal state holds, as plain values (the generator by its internal state)."""
    out = {
        f.name: copy.deepcopy(getattr(state, f.name))
        for f in dataclasses.fields(state)
        if f.name not in ("rng", "log")
    }
    out["rng"] = state.rng.getstate()
    out["log"] = copy.deepcopy(list(state.log))
    return out


def _random_positions(players: int, seed: int, every: int = 3, engine=TAL):
    """Every ``every``-th position of a random game from setup, with the seat to move."""
    rng = random.Random(seed)
    state = engine.setup(players, {}, seed)
    step = 0
    while engine.result(state) is None:
        seat = min(engine.active_seats(state))
        if step % every == 0:
            yield state, seat
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        step += 1


@pytest.mark.parametrize("engine", [TAL, TAL_V1], ids=["rules2", "rules1"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_legal_gives_what_apply_gives_and_leaves_the_old_state_as_it_was(players, engine):
    rng = random.Random(players)
    for state, seat in _random_positions(players, 40 + players, every=2, engine=engine):
        before = _snapshot(state)
        action = rng.choice(engine.legal_actions(state, seat))
        checked = engine.apply(state, seat, action)
        unchecked = engine.apply_legal(state, seat, action)
        assert _snapshot(checked) == _snapshot(unchecked), action
        # the new states share the old one's unchanged sites; a changed site is a copy
        assert _snapshot(state) == before, action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_tal_seat_has_the_same_choices_in_every_sample_through_its_own_turn(players):
    """The search lists a node's choices once (bots.mcts, policies.fixed_choices): this
    holds only if they never depend on what the seat cannot see."""
    assert policies.fixed_choices(TAL)
    rng = random.Random(players)
    checked = 0
    for state, seat in _random_positions(players, 70 + players, every=4):
        game = common.Game(TAL, seat, players)
        real = state
        samples = [game.sample(state, random.Random(n)) for n in range(4)]
        while True:
            actions = TAL.legal_actions(real, seat)
            for sample in samples:
                assert TAL.legal_actions(sample, seat) == actions
                checked += 1
            action = rng.choice(actions)
            real = TAL.apply(real, seat, action)
            samples = [TAL.apply(sample, seat, action) for sample in samples]
            if ends_turn(action) or seat not in TAL.active_seats(real):
                break
    assert checked > 100


def test_the_strong_bot_scores_a_two_seat_tal_lead_flatter_than_the_greedy_bot():
    """In two-seat games the search's squash of a lead (TAL_SEARCH_SCALE) is flatter than
    the heuristic's: the same side ahead, by less; the greedy bot keeps the heuristic."""
    from bots import heuristics

    searched = common.Game(TAL, 0, 2, search=True)
    greedy = common.Game(TAL, 0, 2)
    assert heuristics.TAL_SEARCH_SCALE < heuristics.TAL_SCALE
    leads = 0
    for state, _ in _random_positions(2, 5, every=5):
        if state.phase == "bid":
            continue  # there the search also weighs leads otherwise (graded outbids)
        plain, flat = greedy.values(state)[0], searched.values(state)[0]
        if abs(plain - 0.5) > 0.05:
            assert (flat - 0.5) * (plain - 0.5) > 0 and abs(flat - 0.5) < abs(plain - 0.5)
            leads += 1
    assert leads > 3


def _finished(state, number: int, owner: int, colours: list[str]) -> None:
    """Site ``number`` finished by ``owner``: a small pyramid of four stones and one."""
    from tal.engine.state import site_to_change

    site = site_to_change(state, number)
    site.owner, site.levels, site.finished = owner, [colours[:4], colours[4:]], True


@pytest.mark.parametrize("players", [3, 4])
def test_the_strong_bot_weighs_a_tal_lead_against_every_other_seat_not_only_the_best(players):
    """In three and four seats the search scores a seat against the mean of the others:
    what a trailing seat gains counts against it (the greedy bot watches the leader only)."""
    state = TAL.setup(players, {}, 1)
    state.phase, state.last_round = "over", True
    _finished(state, 13, 0, ["red"] * 5)  # 5 points
    _finished(state, 14, 1, ["grey"] * 4 + ["red"])  # 3 points
    searched = common.Game(TAL, 0, players, search=True)
    greedy = common.Game(TAL, 0, players)
    before = searched.heuristic(state, players), greedy.heuristic(state, players)
    _finished(state, 15, 2, ["black", "grey", "red", "white", "ochre"])  # 1 point, a trailer
    after = searched.heuristic(state, players), greedy.heuristic(state, players)
    assert after[1][0] == before[1][0]  # the greedy bot: still 2 points ahead of the best
    assert after[0][0] < before[0][0]  # the search: the field gained on seat 0
    assert 0.5 < after[0][0] < 1.0
