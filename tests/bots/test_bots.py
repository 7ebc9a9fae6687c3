"""Computer players: legal, blind to other seats' secrets, and better than chance."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bots
from bots import common, heuristics
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


# -- the heuristic pieces -------------------------------------------------------


def _siam_take_stage():
    """A 2-player King of Siam position where the seat to move must take a follower.

    Rama (faction 0) already holds five provinces, so Rama rules whatever
    happens: the one follower that is sure to count is a Rama one.
    """
    state = SIAM.setup(2, {}, 4)
    for province in state.track[:5]:
        state.controller[province] = 0
        state.resolved.append(province)
        state.counts[province] = [0, 0, 0]
    for province in state.track[5:]:
        state.counts[province] = [1, 2, 2]  # every faction can be taken from
    seat = state.turn
    state = SIAM.apply(state, seat, {"type": "play", "card": "maharacha"})
    while SIAM.legal_actions(state, seat)[0]["type"] != "take":
        state = SIAM.apply(state, seat, SIAM.legal_actions(state, seat)[0])
    return state, seat


@pytest.mark.parametrize("strength", ["greedy", "strong"])
def test_siam_bot_takes_a_follower_of_the_faction_sure_to_rule(strength):
    state, seat = _siam_take_stage()
    factions = {a["faction"] for a in SIAM.legal_actions(state, seat)}
    assert factions == {"rama", "lao", "malai"}  # a real choice
    for salt in ("a", "b", "c"):
        action = bots.choose(SIAM, state, seat, strength, budget=FIXED, salt=salt)
        assert action["type"] == "take" and action["faction"] == "rama"


def test_siam_rule_chances_follow_the_provinces():
    state, _ = _siam_take_stage()
    chances, invaded = heuristics.siam_rule_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > 0.9 and invaded < 0.1
    fresh = SIAM.setup(2, {}, 4)
    assert max(heuristics.siam_rule_chances(fresh)[0]) < 0.9  # nothing is decided yet


def test_siam_heuristic_prefers_the_seat_with_more_ruling_followers():
    state, seat = _siam_take_stage()
    other = 1 - seat
    state.followers[seat] = [4, 0, 0]
    state.followers[other] = [1, 3, 3]
    values = heuristics.siam(state, 2)
    assert values[seat] > 0.8 and values[other] < 0.2
    assert values[seat] + values[other] == pytest.approx(1.0)


def test_siam_heuristic_values_cards_kept_in_hand():
    state = SIAM.setup(2, {}, 4)
    before = heuristics.siam(state, 2)[0]
    state.hands[0]["khon_thai"] -= 1
    assert heuristics.siam(state, 2)[0] < before


def test_tal_site_worth_rewards_a_pyramid_that_can_still_be_monochrome():
    mono = [["red", "red", None, None, None, None, None, None, None], [None] * 4, [None]]
    mixed = [["red", "grey", None, None, None, None, None, None, None], [None] * 4, [None]]
    empty = [[None] * 9, [None] * 4, [None]]
    assert heuristics.tal_site_worth("large", mono, False) > heuristics.tal_site_worth(
        "large", mixed, False
    )
    assert heuristics.tal_site_worth("large", mono, False) > heuristics.tal_site_worth(
        "large", empty, False
    )
    full = [["red"] * 9, ["red"] * 4, ["red"]]
    assert heuristics.tal_site_worth("large", full, True) == 20
    layered = [["red"] * 9, ["grey"] * 4, ["red"]]
    assert heuristics.tal_site_worth("large", layered, True) == 10
    small_mixed = [["red", "grey", "red", "red"], ["red"]]
    assert heuristics.tal_site_worth("small", small_mixed, True) == 1


def test_tal_auction_leaders_follow_the_rings_and_the_first_tile_on_a_tie():
    state, first, second = _tal_bids_laid()
    state.bids = [[[first, 3], [second, 1], [second, 2]], [[second, 0]], []]
    state.groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5]
    # A tie of 3 against 3 goes to the seat that laid its first tile first.
    assert heuristics.tal_auction_leaders(state) == [(first, 5)]
    state.bids[0].append([second, 1])
    assert heuristics.tal_auction_leaders(state) == [(second, 5)]
    values = heuristics.tal(state, 2)
    assert values[second] > values[first]


def test_greedy_finishes_the_turn_before_judging_a_card():
    # Playing a card changes nothing on the board: the rest of the turn shows what it does.
    start = SIAM.setup(2, {}, 4)
    for province in start.track[:5]:
        start.controller[province] = 0
        start.resolved.append(province)
        start.counts[province] = [0, 0, 0]
    game = common.Game(SIAM, start.turn, 2)
    played = SIAM.apply(start, start.turn, {"type": "play", "card": "maharacha"})
    finished = game.finish_turn(played, random.Random(0))
    assert finished.pending is None and finished.turn != start.turn
    assert sum(finished.followers[start.turn]) == sum(start.followers[start.turn]) + 1


def test_greedy_beats_random_at_king_of_siam():
    # Reproducible games with fixed seeds; the benchmark (bench/bots.py) measures the rate.
    wins = 0
    for game in range(8):
        strengths = ["greedy", "random"] if game % 2 == 0 else ["random", "greedy"]
        played = play_game(SIAM, strengths, 300 + game)
        wins += played.result["winners"] == [strengths.index("greedy")]
    assert wins >= 6


def _tal_plan_phase(seed: int):
    state = TAL.setup(3, {}, seed)
    while state.phase != "plan":
        seat = min(TAL.active_seats(state))
        actions = TAL.legal_actions(state, seat)
        ends = [a for a in actions if a["type"].startswith("end_")]
        state = TAL.apply(state, seat, ends[0] if ends else actions[0])
    return state


def test_greedy_hands_in_a_tal_plan_after_a_few_steps():
    """A secret plan scores nothing until it is carried out, so every step ties with
    "submit": the tie is drawn by kind, not among sixty plan steps (which made a plan
    of hundreds of invisible moves)."""
    longest = 0
    for seed in range(12):
        state = _tal_plan_phase(seed)
        seat = min(TAL.active_seats(state))
        for steps in range(1, 200):
            action = bots.choose(TAL, state, seat, "greedy", salt=f"plan {seed} {steps}")
            state = TAL.apply(state, seat, action)
            if action["type"] == "submit_plan":
                break
        longest = max(longest, steps)
    assert longest <= 20


def test_a_title_whose_view_does_not_count_the_players_gets_computer_players_too():
    """The protocol does not ask views for "players" or "seats": the site passes
    the seat count, and the medium and hard players work for any title."""
    from tests.fake_engine import CountEngine

    engine = CountEngine()
    state = engine.setup(2, {}, 3)
    seat = min(engine.active_seats(state))
    assert "players" not in engine.view(state, seat) and "seats" not in engine.view(state, seat)
    for strength in ("greedy", "strong"):
        action = bots.choose(engine, state, seat, strength, budget=FIXED, players=2)
        assert action in engine.legal_actions(state, seat)


def test_strong_tal_bot_plans_each_overseer_once_then_hands_the_plan_in():
    """Weighing every plan again at each step let sampling noise rewrite the plan a
    hundred times a round; each overseer is now planned once."""
    for seed in range(3):
        state = _tal_plan_phase(seed)
        seat = min(TAL.active_seats(state))
        steps = []
        while not state.submitted[seat]:
            action = bots.choose(TAL, state, seat, "strong", budget=FIXED, salt=str(seed))
            steps.append(action)
            state = TAL.apply(state, seat, action)
        assert len(steps) == 3 and steps[-1] == {"type": "submit_plan"}
        assert {step["index"] for step in steps[:2]} == {0, 1}


def test_tal_site_worth_counts_the_chance_to_finish_before_the_end():
    empty_large = [[None] * 9, [None] * 4, [None]]
    empty_small = [[None] * 4, [None]]
    # Little time left: a small pyramid can still be finished, a large one hardly.
    assert heuristics.tal_site_worth("small", empty_small, False, 0, 6.0) > (
        heuristics.tal_site_worth("large", empty_large, False, 0, 6.0)
    )
    # Stones about to be built make the finish surer.
    assert heuristics.tal_site_worth("small", empty_small, False, 5, 0.0) >= 1.0
    assert heuristics.tal_site_worth("small", empty_small, False, 0, 0.0) < 0.1


def test_tal_auction_shares_leave_room_for_the_seats_still_to_bid():
    state, first, second = _tal_bids_laid()
    assert state.current == second  # the first seat has ended its bids
    shares = heuristics.tal_auction_shares(state, 2)
    # The second seat holds every tile and may still outbid the first anywhere.
    assert 0 < shares[first] < 10 and shares[second] > 0


def test_strong_tal_search_holds_a_lead_of_more_rings_for_safer():
    """For the strong bot's search a seat still to bid passes a lead of 7 rings less
    readily than one of 4 (it must lay more of its tiles there), and a lead of 10 never;
    the greedy bot's heuristic counts every lead it can pass alike."""
    state, first, second = _tal_bids_laid()
    stones = len(state.groups[0])

    def leader_share(rings: int, graded: bool) -> float:
        state.bids[0] = [[first, rings]]
        return heuristics.tal_auction_shares(state, 2, graded)[first]  # group 2: 0 rings

    # without grading, 4 and 7 rings look the same: the second seat may pass either
    assert leader_share(4, False) == leader_share(7, False) < stones
    assert leader_share(4, True) < leader_share(7, True) < leader_share(10, True) == stones
    assert leader_share(10, False) == stones
