"""One test per rule of the rule book, from hand-made positions."""

import pytest

from enginekit import IllegalAction
from tal.engine import ENGINE_V1
from tal.engine import board as B
from tal.engine.engine import free_scarabs
from tests.tal.tal_helpers import (
    E,
    act,
    all_full,
    keys,
    position,
    stones_total,
    submit_staying,
)

# ----------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("players, in_play", [(2, 9), (3, 12), (4, 15)])
def test_setup_sites_out_of_play_by_player_count(players, in_play):
    s = E.setup(players, {}, 7)
    assert sum(site.in_play for site in s.sites.values()) == in_play


def test_setup_all_figures_stand_in_area_16():
    s = E.setup(4, {}, 3)
    assert all(p == ["16", "16"] for p in s.overseers)
    assert all(p == ["16"] * 5 for p in s.workers)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_bag_of_165_and_one_group_more_than_players(players):
    s = E.setup(players, {}, 11)
    assert len(s.groups) == players + 1
    assert all(len(g) == 5 for g in s.groups)
    assert sum(s.bag.values()) == 165 - 5 * (players + 1)
    assert stones_total(s) == 165
    assert s.phase == "bid" and s.current == s.start_player


def test_setup_start_player_comes_from_the_seed():
    starts = {E.setup(4, {}, seed).start_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert E.setup(4, {}, 5).start_player == E.setup(4, {}, 5).start_player


def test_options_are_validated_and_completed():
    assert E.validate_options(3, {}) == {"advanced": False, "expert": False}
    assert E.validate_options(2, {"expert": True}) == {"advanced": False, "expert": True}
    with pytest.raises(ValueError):
        E.validate_options(5, {})
    with pytest.raises(ValueError):
        E.validate_options(3, {"colour": True})
    with pytest.raises(ValueError):
        E.validate_options(3, {"advanced": "yes"})
    assert [o["name"] for o in E.options_schema()] == ["advanced", "expert"]
    assert (E.slug, E.rules_version, E.min_players, E.max_players) == ("tal", 2, 2, 4)


# ----------------------------------------------------------------------------- auction


def bid_position(players=3, groups=None, **kw):
    s = position(players=players, phase="bid", round=kw.pop("round", 2), **kw)
    if groups is not None:
        # put the set-up market back and lay out our own groups
        for g in s.groups:
            for c in g:
                s.bag[c] += 1
        s.groups = [list(g) for g in groups]
        for g in groups:
            for c in g:
                s.bag[c] -= 1
        s.bids = [[] for _ in groups]
        s.offered = [list(g) for g in groups]
    return s


def test_bids_are_laid_in_turn_order_from_the_start_player():
    s = bid_position(start_player=1)
    assert E.active_seats(s) == {1}
    s = act(s, 1, type="bid", group=1, rings=4)
    assert E.active_seats(s) == {1}
    s = act(s, 1, type="end_bids")
    assert E.active_seats(s) == {2}
    with pytest.raises(IllegalAction):
        act(s, 0, type="bid", group=1, rings=4)


def test_at_most_10_rings_on_one_group():
    s = bid_position()
    for r in (4, 3, 2, 1):
        s = act(s, 0, type="bid", group=1, rings=r)
    assert {"type": "bid", "group": 1, "rings": 1} not in E.legal_actions(s, 0)
    assert {"type": "bid", "group": 1, "rings": 0} in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="At most 10"):
        act(s, 0, type="bid", group=1, rings=1)
    s = act(s, 0, type="bid", group=2, rings=1)  # another group is fine


def test_each_tile_is_laid_once_per_auction():
    s = bid_position()
    s = act(s, 0, type="bid", group=1, rings=4)
    with pytest.raises(IllegalAction, match="no tile"):
        act(s, 0, type="bid", group=2, rings=4)


def finish_auction(s, plan):
    """plan: {seat: [(group, rings), ...]} laid in turn order."""
    for seat in s.order():
        for g, r in plan.get(seat, []):
            s = act(s, seat, type="bid", group=g, rings=r)
        s = act(s, seat, type="end_bids")
    return s


def test_highest_bid_wins_the_group():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups)
    s = finish_auction(s, {0: [(1, 2)], 1: [(1, 3)], 2: [(2, 1)]})
    assert s.supply[1] == {"red": 5}
    assert s.supply[2] == {"grey": 5}
    assert s.supply[0] == {}
    assert s.winners == [1, 2, None, None]


def test_auction_tie_goes_to_the_earlier_bidder():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups, start_player=2)
    # turn order 2, 0, 1: seat 2 bids first
    s = finish_auction(s, {2: [(1, 0), (1, 3)], 0: [(1, 2), (1, 1)], 1: [(1, 3)]})
    assert s.winners[0] == 2


def test_group_with_only_zero_tiles_goes_back_into_the_bag():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups)
    bag_red = s.bag["red"]
    s = finish_auction(s, {0: [(1, 0), (1, 0)]})
    assert s.winners[0] is None
    assert s.bag["red"] == bag_red + 5
    assert s.pharaoh == []
    assert stones_total(s) == 165


def test_advanced_variant_unsold_groups_go_onto_the_pharaoh_pyramid():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups, advanced=True)
    s = finish_auction(s, {0: [(1, 1)]})
    assert len(s.pharaoh) == 15
    assert sorted(set(s.pharaoh)) == ["black", "grey", "white"]
    assert stones_total(s) == 165


def test_pharaoh_overflow_leaves_the_game():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups, advanced=True)
    s.pharaoh = ["ochre"] * 28
    s.bag["ochre"] -= 28
    s = finish_auction(s, {})
    assert len(s.pharaoh) == 30
    assert sum(s.out.values()) == 18
    assert stones_total(s) == 165


def test_bid_tiles_come_back_after_the_auction():
    s = bid_position()
    s = finish_auction(s, {0: [(1, 4), (2, 3)], 1: [(3, 2)]})
    assert all(sorted(t) == sorted(B.BID_TILES) for t in s.tiles)


def test_reveal_moves_on_to_secret_plans_from_round_2():
    s = finish_auction(bid_position(round=2), {})
    assert s.phase == "plan"
    assert E.active_seats(s) == {0, 1, 2}


def test_round_1_overseers_move_openly_in_turn_order():
    s = finish_auction(bid_position(round=1, start_player=1), {})
    assert s.phase == "overseer"
    assert E.active_seats(s) == {1}


def test_bag_fills_fewer_groups_when_it_runs_low():
    s = position(players=4, phase="worker", round=3)
    # leave 12 stones in the bag: the next round has two groups
    moved = 0
    for c in B.COLOURS:
        take = min(s.bag[c], sum(s.bag.values()) - 12 - 0)
        s.bag[c] -= take
        s.out[c] = s.out.get(c, 0) + take
        moved += take
    assert sum(s.bag.values()) == 12
    from tal.engine.engine import _end_round

    _end_round(s)
    assert s.round == 4 and len(s.groups) == 2 and sum(s.bag.values()) == 2
    assert stones_total(s) == 165
    assert not s.last_round


def test_bag_cannot_fill_a_group_no_auction_and_the_game_ends_after_the_round():
    s = position(players=2, phase="worker", round=3)
    for c in B.COLOURS:
        s.out[c] = s.bag[c]
        s.bag[c] = 0
    s.bag["red"], s.out["red"] = 4, s.out["red"] - 4
    from tal.engine.engine import _end_round

    _end_round(s)
    assert s.last_round and s.groups == [] and s.phase == "plan"
    assert stones_total(s) == 165
    assert "The bag cannot fill a group of five" in keys(s)[-1]
    # play the round out: nobody does anything
    for seat in (0, 1):
        s = submit_staying(s, seat)
    for _ in range(2):
        s = act(s, s.current, type="end_moves")
    assert s.phase == "over"
    assert E.result(s)["reason"]["key"].startswith("The bag could not fill")


# ----------------------------------------------------------------------------- overseers


def overseer_r1(players=3, **kw):
    return position(players=players, phase="overseer", round=1, **kw)


def test_round_1_moving_an_overseer_onto_an_unowned_site_claims_it():
    s = overseer_r1()
    s = act(s, 0, type="move", figure="overseer", index=0, to="15-B")
    assert s.sites[15].owner == 0
    assert free_scarabs(s, 0) == 7


def test_round_1_no_figure_may_end_on_another_players_site():
    s = overseer_r1(owners={15: 1})
    acts = E.legal_actions(s, 0)
    assert not any(a.get("to", "").startswith("15-") for a in acts)
    with pytest.raises(IllegalAction, match="first round"):
        act(s, 0, type="move", figure="overseer", index=0, to="15-A")


def test_round_1_a_site_claimed_earlier_is_closed_to_later_movers():
    s = overseer_r1()
    s = act(s, 0, type="move", figure="overseer", index=0, to="14-A")
    s = act(s, 0, type="end_moves")
    assert {"type": "move", "figure": "overseer", "index": 0, "to": "14-C"} not in E.legal_actions(
        s, 1
    )


def test_overseers_move_at_most_6_steps_together():
    s = overseer_r1(overseers={0: ["3-A", "16"]})
    assert B.distance("3-A", "20") == 5  # 3-A, 18, 17, 16, 19, 20
    s = act(s, 0, type="move", figure="overseer", index=0, to="20")
    legal = E.legal_actions(s, 0)
    assert {"type": "move", "figure": "overseer", "index": 1, "to": "17"} in legal
    assert all(B.distance("16", a["to"]) <= 1 for a in legal if a["type"] == "move")
    with pytest.raises(IllegalAction, match="steps"):
        act(s, 0, type="move", figure="overseer", index=1, to="18")


def test_figures_may_pass_through_occupied_fields_only_the_destination_must_be_free():
    s = overseer_r1(workers={1: ["15-A", "15-B", "15-C"]}, overseers={2: ["15-D"]}, owners={})
    # 16 -> 15-A -> ... all fields of 15 occupied; 14-A is still 1 step
    legal = E.legal_actions(s, 0)
    assert {"type": "move", "figure": "overseer", "index": 0, "to": "14-A"} in legal
    assert not any(a.get("to") in ("15-A", "15-B", "15-C", "15-D") for a in legal)
    with pytest.raises(IllegalAction, match="occupied"):
        act(s, 0, type="move", figure="overseer", index=0, to="15-A")


def test_a_figure_moves_once_per_phase():
    s = overseer_r1()
    s = act(s, 0, type="move", figure="overseer", index=0, to="17")
    assert not any(a.get("index") == 0 for a in E.legal_actions(s, 0) if a["type"] == "move")
    with pytest.raises(IllegalAction, match="already moved"):
        act(s, 0, type="move", figure="overseer", index=0, to="18")


def test_each_overseer_claims_at_most_one_site_per_round():
    # moves once, so one claim; a second overseer of the same player claims a second site
    s = overseer_r1()
    s = act(s, 0, type="move", figure="overseer", index=0, to="15-A")
    s = act(s, 0, type="move", figure="overseer", index=1, to="14-A")
    assert s.sites[15].owner == 0 and s.sites[14].owner == 0


def test_claiming_needs_a_free_scarab():
    owners = dict.fromkeys([2, 3, 6, 7, 10, 11, 13, 14], 0)
    s = overseer_r1(players=4, owners=owners)
    assert free_scarabs(s, 0) == 0
    s = act(s, 0, type="move", figure="overseer", index=0, to="15-A")
    assert s.sites[15].owner is None


def test_fields_of_sites_out_of_play_are_out_of_play_too():
    # rules version 2 (ruling 19); under rules 1 they could be stood on (test_tal_rulings)
    s = overseer_r1(players=3)
    assert not s.sites[4].in_play
    # 16 -> 17 -> 18 -> 4-A would be 3 steps
    with pytest.raises(IllegalAction):
        act(s, 0, type="move", figure="overseer", index=0, to="4-A")


def test_secret_plans_from_round_2_all_seats_at_once():
    s = position(phase="plan")
    assert E.active_seats(s) == {0, 1, 2}
    s = act(s, 2, type="plan", index=0, to="15-A")
    s = act(s, 2, type="submit_plan")
    assert E.active_seats(s) == {0, 1}
    assert E.legal_actions(s, 2) == []
    assert s.overseers[2] == ["16", "16"]  # nothing moves before all have submitted


def submit_all(s, plans):
    for seat, targets in plans.items():
        for i, t in enumerate(targets):
            if t is not None:
                s.plans[seat][i] = t  # written straight into the state (any plan)
    for seat in range(s.players):
        s = act(s, seat, type="submit_plan")
    return s


def test_plans_over_6_steps_are_refused_when_written():
    s = position(phase="plan", overseers={0: ["3-A", "16"]})
    s = act(s, 0, type="plan", index=0, to="20")  # 5 steps
    assert {"type": "plan", "index": 1, "to": "17"} in E.legal_actions(s, 0)  # 1 more
    assert {"type": "plan", "index": 1, "to": "18"} not in E.legal_actions(s, 0)  # 2 more
    with pytest.raises(IllegalAction, match="6 steps"):
        act(s, 0, type="plan", index=1, to="18")


def test_plan_of_exactly_6_steps_is_carried_out():
    s = position(phase="plan", overseers={0: ["3-A", "16"]})
    s = submit_all(s, {0: ["20", "17"]})
    assert s.overseers[0] == ["20", "17"]


def test_plan_over_6_steps_leaves_both_overseers_where_they_stood():
    s = position(phase="plan", overseers={0: ["3-A", "16"]})
    s = submit_all(s, {0: ["20", "13-A"]})  # 5 + 1 = 6
    assert s.overseers[0] == ["20", "13-A"]
    s = position(phase="plan", overseers={0: ["3-A", "16"]})
    s = submit_all(s, {0: ["20", "14-A"]})  # written straight into the state
    s2 = position(phase="plan", overseers={0: ["3-A", "16"]})
    s2 = submit_all(s2, {0: ["7-A", "13-A"]})  # 3-A..20 = 5, 20 -> 7-A = 1, + 1 = 7
    assert s2.overseers[0] == ["3-A", "16"]
    assert s2.sites[13].owner is None and s2.sites[7].owner is None
    assert any("both overseers stay" in k for k in keys(s2))


def test_plan_to_an_occupied_field_sends_the_overseer_to_the_bordering_area():
    s = position(phase="plan", workers={1: ["15-A"]})
    s = submit_all(s, {0: ["15-A", "13-A"]})
    assert s.overseers[0] == ["16", "13-A"]
    assert s.sites[15].owner is None and s.sites[13].owner == 0


def test_plans_are_carried_out_in_turn_order_from_the_start_player():
    s = position(phase="plan", start_player=2)
    s = submit_all(s, {0: ["15-A", None], 2: ["15-A", None]})
    assert s.overseers[2][0] == "15-A" and s.sites[15].owner == 2
    assert s.overseers[0][0] == "16"


def test_plan_may_swap_a_players_own_overseers():
    s = position(phase="plan", overseers={0: ["15-A", "15-B"]}, owners={15: 0})
    s = submit_all(s, {0: ["15-B", "15-A"]})
    assert s.overseers[0] == ["15-B", "15-A"]


def test_plan_may_name_an_occupied_field_that_is_free_by_then():
    s = position(phase="plan", overseers={1: ["15-A"]}, owners={15: 1}, start_player=1)
    assert {"type": "plan", "index": 0, "to": "15-A"} in E.legal_actions(s, 0)
    s = submit_all(s, {1: ["16", None], 0: ["15-A", None]})
    assert s.overseers[0][0] == "15-A"


def test_staying_on_a_field_of_an_unowned_site_under_a_plan_claims_it():
    s = position(phase="plan", overseers={0: ["15-A"]})
    assert s.sites[15].owner is None
    s = submit_all(s, {})
    assert s.sites[15].owner == 0


def test_an_overseer_sent_to_an_area_claims_nothing():
    s = position(phase="plan", workers={1: ["15-A"]})
    s = submit_all(s, {0: ["15-A", None]})
    assert s.overseers[0][0] == "16" and s.sites[15].owner is None


def test_from_round_2_overseers_may_go_onto_other_players_sites():
    s = position(phase="plan", owners={15: 1})
    assert {"type": "plan", "index": 0, "to": "15-A"} in E.legal_actions(s, 0)
    s = submit_all(s, {0: ["15-A", None]})
    assert s.overseers[0][0] == "15-A" and s.sites[15].owner == 1


# ----------------------------------------------------------------------------- workers


def test_workers_move_up_to_6_steps_together_in_turn_order():
    s = position(phase="worker", start_player=0)
    s = act(s, 0, type="move", figure="worker", index=0, to="7-A")  # 3
    s = act(s, 0, type="move", figure="worker", index=1, to="3-A")  # 3
    assert E.legal_actions(s, 0) == [{"type": "end_moves"}]
    s = act(s, 0, type="end_moves")
    assert E.active_seats(s) == {1}


def test_round_2_workers_may_go_onto_other_players_sites():
    s = position(phase="worker", owners={15: 1})
    s = act(s, 0, type="move", figure="worker", index=0, to="15-A")
    assert s.workers[0][0] == "15-A"


def test_round_1_workers_may_not_go_onto_other_players_sites():
    s = position(phase="worker", round=1, owners={15: 1})
    with pytest.raises(IllegalAction, match="first round"):
        act(s, 0, type="move", figure="worker", index=0, to="15-A")


# ----------------------------------------------------------------------------- stealing


def steal_position(**kw):
    kw.setdefault("phase", "steal")
    return position(**kw)


def test_stealing_needs_more_overseers_than_the_owner_and_a_worker():
    base = dict(owners={2: 1}, levels={2: ["rrrrrrrrr", "....", "."]})
    s = steal_position(overseers={0: ["2-A"], 1: ["2-B"]}, workers={0: ["2-C"]}, **base)
    assert s.phase != "steal" or s.current != 0  # equal overseers: nothing to steal, no turn
    s = steal_position(overseers={0: ["2-A"]}, workers={0: ["2-C"]}, **base)
    assert {"type": "steal", "site": 2, "slot": 0} in E.legal_actions(s, 0)
    s = steal_position(overseers={0: ["2-A"]}, **base)
    assert s.phase != "steal" or s.current != 0


def test_steal_up_to_2_stones_per_own_worker():
    s = steal_position(
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C", "2-D"]},
    )
    for _ in range(4):
        s = act(s, 0, type="steal", site=2, slot=[a for a in E.legal_actions(s, 0)][0]["slot"])
    assert s.supply[0] == {"red": 4}
    assert E.legal_actions(s, 0) == [{"type": "end_steal"}]


def test_steal_only_from_the_top_level_and_the_level_below_becomes_the_top():
    s = steal_position(
        owners={15: 1},
        levels={15: ["rrrr", "b"]},
        overseers={0: ["15-A"]},
        workers={0: ["15-B"]},
    )
    # finished pyramids are safe, so make it unfinished first
    s = steal_position(
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "gb..", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    legal = E.legal_actions(s, 0)
    assert {a["slot"] for a in legal if a["type"] == "steal"} == {0, 1}
    s = act(s, 0, type="steal", site=2, slot=0)
    s = act(s, 0, type="steal", site=2, slot=1)
    assert s.sites[2].levels[1] == [None] * 4
    assert s.supply[0] == {"grey": 1, "black": 1}


def test_rule_book_stealing_example_two_thieves_at_site_2():
    # Grey owns site 2: full bottom level and the first stone of level 2. Black and white
    # each have one overseer and one worker there, grey none. Black (first) takes the level-2
    # stone and one bottom stone, then white takes two bottom stones.
    grey, black, white = 0, 1, 2
    s = steal_position(
        start_player=black,
        owners={2: grey},
        levels={2: ["rrrrrrrrr", "g...", "."]},
        overseers={black: ["2-A"], white: ["2-E"]},
        workers={black: ["2-B"], white: ["2-F"]},
    )
    assert s.current == black
    s = act(s, black, type="steal", site=2, slot=0)
    assert s.sites[2].levels[1][0] is None
    s = act(s, black, type="steal", site=2, slot=0)
    s = act(s, black, type="end_steal")
    assert s.current == white
    s = act(s, white, type="steal", site=2, slot=1)
    s = act(s, white, type="steal", site=2, slot=2)
    assert s.sites[2].stone_count() == 6
    assert s.supply[black] == {"grey": 1, "red": 1} and s.supply[white] == {"red": 2}


def test_never_steal_from_a_finished_pyramid():
    s = steal_position(
        owners={15: 1},
        levels={15: ["rrrr", "b"]},
        overseers={0: ["15-A"]},
        workers={0: ["15-B"]},
    )
    assert s.sites[15].finished
    assert s.phase != "steal" or s.current != 0
    assert all(a["type"] != "steal" for a in E.legal_actions(s, 0))


def test_stealing_is_optional():
    s = steal_position(
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    s = act(s, 0, type="end_steal")
    assert s.sites[2].stone_count() == 9


def test_stolen_stones_are_built_or_go_onto_the_pharaoh_pyramid():
    s = steal_position(
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    s = act(s, 0, type="steal", site=2, slot=0)
    s = act(s, 0, type="end_steal")
    # no takeover possible (one worker each? owner has none, but 1 overseer > 0 and 1 > 0)
    assert s.phase == "takeover"
    s = act(s, 0, type="end_takeover")
    # seat 0 owns nothing: its stone goes onto the Pharaoh pyramid automatically
    assert s.pharaoh == ["red"]
    assert stones_total(s) == 165


# ----------------------------------------------------------------------------- takeovers


def takeover_position(**kw):
    kw.setdefault("phase", "takeover")
    return position(**kw)


def test_takeover_needs_more_overseers_and_more_workers_than_the_owner():
    base = dict(owners={2: 1}, levels={2: ["rrrrrrrrr", "....", "."]})
    s = takeover_position(overseers={0: ["2-A"]}, workers={0: ["2-B"], 1: ["2-C"]}, **base)
    assert all(a["type"] != "takeover" for a in E.legal_actions(s, 0))
    s = takeover_position(overseers={0: ["2-A"]}, workers={0: ["2-B"]}, **base)
    s = act(s, 0, type="takeover", site=2)
    assert s.sites[2].owner == 0
    assert free_scarabs(s, 1) == 8 and free_scarabs(s, 0) == 7
    assert s.sites[2].stone_count() == 9  # the pyramid goes with the site


def test_takeover_needs_a_free_scarab():
    owners = dict.fromkeys([3, 6, 7, 10, 11, 13, 14, 15], 0)
    owners[2] = 1
    s = takeover_position(players=4, owners=owners, overseers={0: ["2-A"]}, workers={0: ["2-B"]})
    assert free_scarabs(s, 0) == 0
    assert all(a["type"] != "takeover" for a in E.legal_actions(s, 0))


def test_finished_pyramids_cannot_be_taken_over():
    s = takeover_position(
        owners={15: 1}, levels={15: ["rrrr", "r"]}, overseers={0: ["15-A"]}, workers={0: ["15-B"]}
    )
    assert all(a["type"] != "takeover" for a in E.legal_actions(s, 0))


def test_a_player_may_steal_and_then_take_over_the_same_site():
    s = steal_position(
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    s = act(s, 0, type="steal", site=2, slot=0)
    s = act(s, 0, type="end_steal")
    assert s.phase == "takeover" and s.current == 0
    s = act(s, 0, type="takeover", site=2)
    assert s.sites[2].owner == 0


def test_several_takeovers_of_one_site_follow_turn_order_against_the_current_owner():
    s = takeover_position(
        start_player=1,
        owners={2: 0},
        overseers={1: ["2-A"], 2: ["2-B", "2-C"]},
        workers={1: ["2-D"], 2: ["2-E", "2-F"]},
    )
    s = act(s, 1, type="takeover", site=2)
    s = act(s, 1, type="end_takeover")
    assert s.current == 2
    s = act(s, 2, type="takeover", site=2)
    assert s.sites[2].owner == 2 and free_scarabs(s, 1) == 8


def test_more_overseers_but_fewer_workers_than_the_owner_steal_but_no_takeover():
    # "mehr Aufseher als der Besitzer ... kann Bausteine entwenden", but taking over needs
    # "mehr Aufseher und mehr Arbeiter": the thief's steal turn is followed by no takeover
    # turn, and the round goes on to building.
    s = steal_position(
        owners={3: 1, 15: 0},
        levels={3: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["3-A", "16"]},
        workers={0: ["3-B", "15-A"], 1: ["3-C", "3-D"]},
    )
    assert s.current == 0
    assert {"type": "steal", "site": 3, "slot": 0} in E.legal_actions(s, 0)
    s = act(s, 0, type="steal", site=3, slot=0)
    s = act(s, 0, type="end_steal")
    assert s.phase == "build" and s.current == 0
    assert s.sites[3].owner == 1
    assert all(a["type"] != "takeover" for a in E.legal_actions(s, 0))
    assert s.supply[0] == {"red": 1}


def test_a_site_taken_over_may_be_built_on_in_the_same_round():
    # Phase 5 (takeover) comes before phase 6 (building): the new owner builds there at once.
    s = takeover_position(
        owners={3: 1},
        levels={3: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["3-A", "16"]},
        workers={0: ["3-B", "3-C"]},
        supply={0: {"grey": 3}},
    )
    s = act(s, 0, type="takeover", site=3)
    s = act(s, 0, type="end_takeover")
    assert s.phase == "build" and s.current == 0 and s.sites[3].owner == 0
    assert {"type": "build", "site": 3, "slot": 0, "colour": "grey"} in E.legal_actions(s, 0)
    s = act(s, 0, type="build", site=3, slot=0, colour="grey")
    assert s.sites[3].levels[1][0] == "grey"


# ----------------------------------------------------------------------------- building


def build_position(**kw):
    kw.setdefault("phase", "build")
    return position(**kw)


def test_build_two_stones_per_own_worker_on_own_sites():
    s = build_position(owners={2: 0}, workers={0: ["2-A"]}, supply={0: {"red": 5}})
    s = act(s, 0, type="build", site=2, slot=0, colour="red")
    s = act(s, 0, type="build", site=2, slot=1, colour="red")
    assert E.legal_actions(s, 0) == [{"type": "end_build"}]
    s = act(s, 0, type="end_build")
    assert len(s.pharaoh) == 3 and s.sites[2].stone_count() == 2


def test_build_only_on_own_sites():
    s = build_position(owners={2: 1}, workers={0: ["2-A"]}, supply={0: {"red": 2}})
    # seat 0 can build nowhere: its stones go onto the Pharaoh pyramid without a turn
    assert s.pharaoh == ["red", "red"] and s.supply[0] == {}
    assert s.phase == "bid" and s.round == 3


def test_build_needs_workers_at_the_site_but_not_overseers():
    s = build_position(owners={2: 0}, supply={0: {"red": 2}})
    assert all(a["type"] != "build" for a in E.legal_actions(s, 0))
    s = build_position(owners={2: 0}, workers={0: ["2-H"]}, supply={0: {"red": 2}})
    assert any(a["type"] == "build" for a in E.legal_actions(s, 0))


def test_build_level_by_level():
    s = build_position(
        owners={15: 0}, levels={15: ["rrr.", "."]}, workers={0: ["15-A"]}, supply={0: {"red": 2}}
    )
    assert [a for a in E.legal_actions(s, 0) if a["type"] == "build"] == [
        {"type": "build", "site": 15, "slot": 3, "colour": "red"}
    ]
    s = act(s, 0, type="build", site=15, slot=3, colour="red")
    assert [a for a in E.legal_actions(s, 0) if a["type"] == "build"] == [
        {"type": "build", "site": 15, "slot": 0, "colour": "red"}
    ]
    s = act(s, 0, type="build", site=15, slot=0, colour="red")
    assert s.sites[15].finished


def test_finishing_a_pyramid_puts_the_scarab_on_top():
    s = build_position(
        owners={15: 0}, levels={15: ["rrrr", "."]}, workers={0: ["15-A"]}, supply={0: {"red": 1}}
    )
    s = act(s, 0, type="build", site=15, slot=0, colour="red")
    assert s.sites[15].finished and s.sites[15].owner == 0
    assert free_scarabs(s, 0) == 7  # the scarab stays used, on top of the pyramid
    assert any("finishes the pyramid" in k for k in keys(s))


def test_unbuilt_stones_go_onto_the_pharaoh_pyramid():
    s = build_position(owners={2: 0}, workers={0: ["2-A"]}, supply={0: {"red": 1, "grey": 2}})
    s = act(s, 0, type="end_build")
    assert sorted(s.pharaoh) == ["grey", "grey", "red"] and s.supply[0] == {}


def test_stone_positions_offered_where_they_can_matter():
    kw = dict(owners={2: 0}, workers={0: ["2-A"]}, supply={0: {"red": 1}})
    s = build_position(**kw)
    slots = sorted(a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "build")
    assert slots == [0, 4]  # an outer stone or the hidden centre
    s = build_position(expert=True, **kw)
    slots = sorted(a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "build")
    assert slots == list(range(9))
    s = build_position(owners={15: 0}, workers={0: ["15-A"]}, supply={0: {"red": 1}})
    assert [a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "build"] == [0]


def test_building_turns_follow_turn_order():
    s = build_position(
        start_player=1,
        owners={15: 0, 14: 1},
        workers={0: ["15-A"], 1: ["14-A"]},
        supply={0: {"red": 1}, 1: {"grey": 1}},
    )
    assert s.current == 1
    s = act(s, 1, type="build", site=14, slot=0, colour="grey")
    assert s.current == 1  # the turn ends with end_build, even with no stones left
    s = act(s, 1, type="end_build")
    assert s.current == 0


# ----------------------------------------------------------------------------- end of round


def test_start_player_passes_to_the_left_at_the_end_of_the_round():
    s = build_position(start_player=2)  # nobody has stones: the round ends at once
    assert s.start_player == 0 and s.round == 3 and s.phase == "bid" and s.current == 0


def test_game_ends_after_the_round_in_which_the_pharaoh_pyramid_is_finished():
    s = build_position(owners={15: 0}, workers={0: ["15-A"]}, supply={0: {"red": 3}})
    s.pharaoh = ["grey"] * 28
    s.bag["grey"] -= 28
    s = act(s, 0, type="end_build")
    assert s.phase == "over" and E.result(s)["reason"]["key"].startswith("The Pharaoh")
    assert len(s.pharaoh) == 30 and s.out == {"red": 1}


def test_advanced_pharaoh_finished_by_the_auction_the_round_is_still_played():
    groups = [["red"] * 5] * 4
    s = bid_position(groups=groups, advanced=True)
    s.pharaoh = ["grey"] * 26
    s.bag["grey"] -= 26
    s = finish_auction(s, {})
    assert len(s.pharaoh) == 30 and s.phase == "plan"
    for seat in range(3):
        s = submit_staying(s, seat)
    for _ in range(3):
        s = act(s, s.current, type="end_moves")
    assert s.phase == "over"


def test_game_ends_when_all_other_pyramids_are_finished():
    levels = all_full(2) | {15: ["rrrr", "."]}
    s = build_position(
        players=2,
        owners=dict.fromkeys(levels, 0) | {15: 1},
        levels=levels,
        workers={1: ["15-A"]},
        supply={1: {"red": 1}},
    )
    assert s.phase == "build" and s.current == 1
    s = act(s, 1, type="build", site=15, slot=0, colour="red")
    assert s.sites[15].finished and s.phase == "build"  # the round is played to its end
    s = act(s, 1, type="end_build")
    assert s.phase == "over"
    assert E.result(s)["reason"]["key"].startswith("All pyramids")


def test_an_unowned_site_keeps_the_game_going():
    levels = all_full(2, skip=(13,))
    s = build_position(players=2, owners=dict.fromkeys(levels, 0), levels=levels)
    assert s.phase == "bid" and s.round == 3


def test_result_ranks_by_points_with_shared_wins():
    from tal.engine.engine import _end_round

    full = {"small": ["rrrr", "r"], "large": ["ggggggggg", "gggg", "b"]}
    s = position(
        players=3,
        phase="worker",
        owners={15: 0, 14: 1, 2: 2},
        levels={15: full["small"], 14: ["rrrr", "b"], 2: full["large"]},
    )
    s.last_round = True
    _end_round(s)
    r = E.result(s)
    assert r["details"]["points"] == [5, 3, 10]
    assert r["ranking"] == [2, 0, 1] and r["winners"] == [2]
    s = position(
        players=3,
        phase="worker",
        owners={15: 0, 14: 1},
        levels={15: full["small"], 14: ["gggg", "g"]},
    )
    s.last_round = True
    _end_round(s)
    r = E.result(s)
    assert r["winners"] == [0, 1] and r["ranking"] == [0, 1, 2]
    assert {p["site"]: p["type"] for p in r["details"]["pyramids"]} == {
        14: "monochrome",
        15: "monochrome",
    }


# ----------------------------------------------------------------------------- audit additions


@pytest.mark.parametrize("players, out", [(2, {1, 4, 5, 8, 9, 12}), (3, {4, 8, 12}), (4, set())])
def test_setup_the_sites_marked_with_suns_are_out_of_play(players, out):
    # 3 suns: out with 3 players; 2 and 3 suns: out with 2 players
    s = E.setup(players, {}, 5)
    assert {n for n, site in s.sites.items() if not site.in_play} == out
    assert all(site.owner is None for site in s.sites.values())
    if out:
        # nobody can claim them, so nobody can build there: no figure goes onto their
        # fields (rules 2, ruling 19), and one that stands there (rules 1) claims nothing
        s = position(players=players, phase="overseer", round=1)
        field = B.SITE_FIELDS[min(out)][0]
        assert not [a for a in E.legal_actions(s, 0) if a.get("to") == field]
        acts = [a for a in ENGINE_V1.legal_actions(s, 0) if a.get("to") == field]
        assert acts, field  # an overseer may stand there, so the check below always runs
        s = ENGINE_V1.apply(s, 0, acts[0])
        assert s.sites[min(out)].owner is None
        assert not any("claims site" in e["key"] for e in s.log)


def test_group_without_any_tile_goes_back_into_the_bag():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups)
    bag = dict(s.bag)
    s = finish_auction(s, {0: [(1, 1)]})
    assert s.winners == [0, None, None, None]
    assert s.bag == bag | {
        "grey": bag["grey"] + 5,
        "black": bag["black"] + 5,
        "white": bag["white"] + 5,
    }
    assert s.groups == [[], [], [], []] and stones_total(s) == 165


def test_advanced_variant_sold_groups_go_to_the_winner_not_the_pharaoh():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups, advanced=True)
    bag = dict(s.bag)
    s = finish_auction(s, {0: [(1, 1)], 1: [(2, 2)]})
    assert s.supply[0] == {"red": 5} and s.supply[1] == {"grey": 5}
    assert sorted(s.pharaoh) == ["black"] * 5 + ["white"] * 5
    assert s.bag == bag  # nothing goes back into the bag


def test_auction_tie_among_three_bidders_goes_to_the_first_in_turn_order():
    groups = [["red"] * 5, ["grey"] * 5, ["black"] * 5, ["white"] * 5]
    s = bid_position(groups=groups, start_player=1)
    # order 1, 2, 0: seat 1 bids 2 with one tile, seat 2 with two, seat 0 with three
    s = finish_auction(s, {1: [(1, 2)], 2: [(1, 1), (1, 1)], 0: [(1, 1), (1, 1), (1, 0)]})
    assert s.winners[0] == 1
    # a higher later bid beats an earlier one
    s = bid_position(groups=groups, start_player=1)
    s = finish_auction(s, {1: [(1, 2)], 2: [(1, 3)]})
    assert s.winners[0] == 2


def test_plan_to_a_field_left_only_later_in_turn_order_sends_the_overseer_to_the_area():
    # seat 0 moves first; seat 1's overseer still stands on 15-A then
    s = position(phase="plan", overseers={1: ["15-A"]}, owners={15: 1}, start_player=0)
    s = submit_all(s, {1: ["16", None], 0: ["15-A", None]})
    assert s.overseers[0][0] == "16" and s.overseers[1][0] == "16"
    assert s.sites[15].owner == 1


def test_plan_naming_one_field_for_both_overseers_the_first_gets_it():
    s = position(phase="plan")
    s = submit_all(s, {0: ["13-A", "13-A"]})
    assert s.overseers[0] == ["13-A", "16"]
    assert s.sites[13].owner == 0 and free_scarabs(s, 0) == 7


def test_plan_claims_in_overseer_order_while_scarabs_last():
    owners = dict.fromkeys([2, 3, 6, 7, 10, 11, 13], 0)  # 7 sites: one scarab left
    s = position(players=4, phase="plan", owners=owners)
    s = submit_all(s, {0: ["15-A", "14-A"]})
    assert s.sites[15].owner == 0 and s.sites[14].owner is None
    assert s.overseers[0] == ["15-A", "14-A"]


def test_plans_are_revealed_together_only_when_every_seat_has_submitted():
    s = position(phase="plan")
    s = act(s, 0, type="plan", index=0, to="15-A")
    s = act(s, 0, type="submit_plan")
    s = act(s, 1, type="submit_plan")
    assert not s.plans_revealed and s.overseers[0] == ["16", "16"]
    s = act(s, 2, type="submit_plan")
    assert s.plans_revealed and s.overseers[0][0] == "15-A" and s.phase == "worker"


def test_workers_may_pass_through_occupied_fields():
    s = position(phase="worker", overseers={1: ["15-A", "15-B"]}, workers={2: ["15-C", "15-D"]})
    # every field of site 15 is taken; 14-A is one step from 16 all the same
    legal = E.legal_actions(s, 0)
    assert {"type": "move", "figure": "worker", "index": 0, "to": "14-A"} in legal
    assert not any(a.get("to", "").startswith("15-") for a in legal)


def test_stealing_never_from_own_sites_or_unowned_sites():
    s = steal_position(
        owners={2: 0},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A", "2-B"]},
        workers={0: ["2-C"]},
    )
    assert all(a["type"] != "steal" for a in E.legal_actions(s, 0))


def test_stealing_the_hidden_centre_is_a_separate_choice():
    s = steal_position(
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    assert [a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "steal"] == [0, 4]
    s = act(s, 0, type="steal", site=2, slot=4)
    assert s.sites[2].levels[0][4] is None
    # the owner refills the hole first (level by level)
    s2 = build_position(
        owners={2: 1},
        levels={2: ["rrrr.rrrr", "....", "."]},
        workers={1: ["2-A"]},
        supply={1: {"grey": 1}},
    )
    assert [a["slot"] for a in E.legal_actions(s2, 1) if a["type"] == "build"] == [4]


def test_takeover_returns_the_scarab_to_the_previous_owner():
    s = takeover_position(owners={2: 1, 3: 1}, overseers={0: ["2-A"]}, workers={0: ["2-B"]})
    assert free_scarabs(s, 1) == 6
    s = act(s, 0, type="takeover", site=2)
    assert free_scarabs(s, 1) == 7 and s.sites[3].owner == 1
    assert any("takes over site" in k for k in keys(s))


def test_takeover_of_an_unowned_site_is_not_possible():
    s = takeover_position(overseers={0: ["2-A"]}, workers={0: ["2-B"]})
    assert s.sites[2].owner is None
    assert s.phase != "takeover" or all(
        a["type"] != "takeover" for a in E.legal_actions(s, s.current)
    )


def test_build_the_player_chooses_the_colour_of_each_stone():
    s = build_position(owners={15: 0}, workers={0: ["15-A"]}, supply={0: {"red": 1, "ochre": 1}})
    colours = {a["colour"] for a in E.legal_actions(s, 0) if a["type"] == "build"}
    assert colours == {"red", "ochre"}


def test_the_round_is_played_to_its_end_after_the_pharaoh_pyramid_is_finished():
    s = build_position(
        start_player=0,
        owners={15: 0, 14: 1},
        workers={0: ["15-A"], 1: ["14-A"]},
        supply={0: {"red": 3}, 1: {"grey": 2}},
    )
    s.pharaoh = ["white"] * 28
    s.bag["white"] -= 28
    s = act(s, 0, type="end_build")  # 2 fill the Pharaoh pyramid, 1 leaves the game
    assert len(s.pharaoh) == 30 and s.phase == "build" and s.current == 1
    s = act(s, 1, type="build", site=14, slot=0, colour="grey")
    s = act(s, 1, type="end_build")
    assert s.phase == "over" and s.sites[14].stone_count() == 1
    assert s.out == {"red": 1, "grey": 1} and stones_total(s) == 165


def test_round_1_has_nothing_to_steal_or_take_over():
    # no figure may end on another player's site in round 1, so the phases pass
    s = position(players=2, phase="overseer", round=1, start_player=0)
    s = act(s, 0, type="move", figure="overseer", index=0, to="13-A")
    s = act(s, 0, type="move", figure="overseer", index=1, to="14-A")
    s = act(s, 0, type="end_moves")
    assert not any(B.FIELD_SITE.get(a.get("to", "")) in (13, 14) for a in E.legal_actions(s, 1))
    s = act(s, 1, type="end_moves")
    s = act(s, 0, type="end_moves")
    s = act(s, 1, type="end_moves")
    assert s.phase == "bid" and s.round == 2  # steal, takeover and build had no turn
