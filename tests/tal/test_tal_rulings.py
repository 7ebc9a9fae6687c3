"""One test per ruling this engine makes beyond tal-der-koenige-board.md.

The numbers follow the list in the docstring of ``tal.engine``.
"""

import pytest

from enginekit import IllegalAction
from tal.engine import ENGINE_V1
from tal.engine import board as B
from tests.tal.tal_helpers import E, act, position


def test_ruling_1_each_figure_moves_once_and_not_onto_its_own_spot():
    s = position(phase="worker")
    assert not any(a.get("to") == "16" for a in E.legal_actions(s, 0))
    s = act(s, 0, type="move", figure="worker", index=0, to="17")
    assert not any(a.get("index") == 0 for a in E.legal_actions(s, 0) if a["type"] == "move")
    # the direct route is never longer than a detour via a stop
    for a in B.NODES[:20]:
        for b in B.NODES[::7]:
            for c in B.NODES[::11]:
                assert B.DIST[a][c] <= B.DIST[a][b] + B.DIST[b][c]


def test_ruling_2_plans_over_6_steps_are_refused_when_written():
    s = position(phase="plan", overseers={0: ["3-A", "16"]})
    s = act(s, 0, type="plan", index=0, to="20")
    with pytest.raises(IllegalAction):
        act(s, 0, type="plan", index=1, to="18")
    assert all(
        B.DIST["3-A"][a["to"]] + B.DIST["16"]["16"] <= 6
        for a in E.legal_actions(position(phase="plan", overseers={0: ["3-A", "16"]}), 0)
        if a["type"] == "plan" and a["index"] == 0
    )


def test_ruling_3_a_plan_may_name_a_currently_occupied_field():
    s = position(phase="plan", workers={1: ["15-A"]})
    assert {"type": "plan", "index": 0, "to": "15-A"} in E.legal_actions(s, 0)


def test_ruling_4_who_gets_a_turn_in_which_phase():
    # every seat bids and moves workers, even with nothing useful to do
    s = position(players=3, phase="worker")
    for seat in (0, 1, 2):
        assert s.current == seat
        s = act(s, seat, type="end_moves")
    # nobody can steal, take over or build: those phases are skipped; the round ends
    assert s.phase == "bid" and s.round == 3
    assert s.current == 1  # the new start player


def test_ruling_4_a_seat_that_can_build_nothing_has_its_stones_put_on_the_pharaoh():
    s = position(players=2, phase="build", supply={0: {"red": 2}, 1: {"grey": 1}})
    assert sorted(s.pharaoh) == ["grey", "red", "red"]


def test_ruling_5_remaining_bid_tiles_of_others_are_secret():
    s = position(players=2, phase="bid")
    s = act(s, 0, type="bid", group=1, rings=4)
    s = act(s, 0, type="end_bids")
    v = E.view(s, 1)
    assert v["seats"][0]["tile_values"] is None and v["seats"][0]["tiles_left"] == 7
    assert E.view(s, 0)["seats"][0]["tile_values"] == [0, 0, 1, 1, 2, 2, 3]


def test_ruling_5_highest_total_over_zero_wins_ties_to_the_first_tile():
    s = position(players=2, phase="bid", start_player=1)
    s = act(s, 1, type="bid", group=1, rings=1)
    s = act(s, 1, type="bid", group=1, rings=1)
    s = act(s, 1, type="end_bids")
    s = act(s, 0, type="bid", group=1, rings=2)
    s = act(s, 0, type="end_bids")
    assert s.winners[0] == 1


def test_ruling_6_equal_scores_share_the_win():
    from tal.engine.engine import _end_round

    s = position(players=2, phase="worker")
    s.last_round = True
    _end_round(s)
    r = E.result(s)
    assert r["winners"] == [0, 1] and r["ranking"] == [0, 1]


def test_ruling_7_the_steal_budget_covers_the_whole_turn():
    s = position(
        phase="steal",
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    s = act(s, 0, type="steal", site=2, slot=0)
    s = act(s, 0, type="steal", site=2, slot=1)
    assert E.legal_actions(s, 0) == [{"type": "end_steal"}]


def test_ruling_8_round_1_claims_happen_at_once_and_close_the_site():
    s = position(phase="overseer", round=1)
    s = act(s, 0, type="move", figure="overseer", index=0, to="13-A")
    assert s.sites[13].owner == 0
    s = act(s, 0, type="end_moves")
    assert not any(a.get("to", "").startswith("13-") for a in E.legal_actions(s, 1))


def test_ruling_9_positions_are_offered_only_where_they_can_matter():
    s = position(phase="build", owners={15: 0}, workers={0: ["15-A"]}, supply={0: {"red": 1}})
    assert [a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "build"] == [0]
    s = position(
        phase="build", expert=True, owners={15: 0}, workers={0: ["15-A"]}, supply={0: {"red": 1}}
    )
    assert [a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "build"] == [0, 1, 2, 3]
    # steals: one per colour and kind of position without stripes
    s = position(
        phase="steal",
        owners={2: 1},
        levels={2: ["rrgr.rrrr".replace(".", "g"), "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    assert [a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "steal"] == [0, 2, 4]


def test_ruling_10_undo_only_while_keeping_the_turn():
    s = position(phase="worker")
    s = act(s, 0, type="move", figure="worker", index=0, to="17")
    assert E.can_undo(s, 0)
    s = act(s, 0, type="end_moves")
    assert not E.can_undo(s, 0)


def test_ruling_11_the_10_ring_limit_is_per_seat_and_group():
    s = position(players=2, phase="bid", start_player=0)
    for r in (4, 3, 2, 1):
        s = act(s, 0, type="bid", group=1, rings=r)
    s = act(s, 0, type="end_bids")
    for r in (4, 3, 2, 1):
        s = act(s, 1, type="bid", group=1, rings=r)
    assert s.bids[0] and sum(r for _, r in s.bids[0]) == 20


def test_ruling_12_without_a_free_scarab_the_overseer_still_moves_but_claims_nothing():
    owners = dict.fromkeys([2, 3, 6, 7, 10, 11, 13, 14], 0)
    s = position(players=4, phase="plan", owners=owners)
    s = act(s, 0, type="plan", index=0, to="15-A")
    for seat in range(4):
        s = act(s, seat, type="submit_plan")
    assert s.overseers[0][0] == "15-A" and s.sites[15].owner is None


def test_ruling_13_the_market_shows_what_was_offered_after_the_reveal():
    s = position(players=2, phase="bid", start_player=0)
    offered = [list(g) for g in s.groups]
    s = act(s, 0, type="bid", group=1, rings=1)
    s = act(s, 0, type="end_bids")
    s = act(s, 1, type="end_bids")
    v = E.view(s, None)
    assert [g["stones"] for g in v["market"]["groups"]] == offered
    assert v["market"]["groups"][0]["winner"] == 0 and v["market"]["groups"][0]["sold"]


def test_ruling_14_the_thief_chooses_the_stones_to_take():
    s = position(
        phase="steal",
        owners={2: 1},
        levels={2: ["rrrrgrrrr", "bw..", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    assert [a["slot"] for a in E.legal_actions(s, 0) if a["type"] == "steal"] == [0, 1]
    s = act(s, 0, type="steal", site=2, slot=1)  # the white one, not the black one
    s = act(s, 0, type="steal", site=2, slot=0)
    assert s.supply[0] == {"white": 1, "black": 1}
    s = position(
        phase="steal",
        owners={2: 1},
        levels={2: ["rrrrgrrrr", "....", "."]},
        overseers={0: ["2-A"]},
        workers={0: ["2-C"]},
    )
    # the grey hidden centre may be taken (and then the owner can still go monochrome)
    s = act(s, 0, type="steal", site=2, slot=4)
    assert s.sites[2].levels[0][4] is None and s.supply[0] == {"grey": 1}


def test_ruling_15_a_plan_is_put_down_overseer_1_first():
    s = position(phase="plan", overseers={0: ["15-A", "16"]}, owners={15: 0})
    # overseer 2 takes overseer 1's field, overseer 1 wants to stay: overseer 1 keeps it
    s.plans[0] = ["15-A", "15-A"]
    for seat in range(3):
        s = act(s, seat, type="submit_plan")
    assert s.overseers[0] == ["15-A", "16"]
    owners = dict.fromkeys([2, 3, 6, 7, 10, 11, 13], 0)
    s = position(players=4, phase="plan", owners=owners)
    s.plans[0] = ["14-A", "15-A"]
    for seat in range(4):
        s = act(s, seat, type="submit_plan")
    assert s.sites[14].owner == 0 and s.sites[15].owner is None
    # occupied when put down, even if its figure leaves later in turn order
    s = position(phase="plan", overseers={2: ["13-B"]}, owners={13: 2}, start_player=0)
    s.plans[0] = ["13-B", "16"]
    s.plans[2] = ["16", "16"]
    for seat in range(3):
        s = act(s, seat, type="submit_plan")
    assert s.overseers[0][0] == "16" and s.overseers[2][0] == "16"


def test_ruling_16_pharaoh_overflow_takes_stones_in_colour_order():
    s = position(
        phase="build",
        owners={15: 0},
        workers={0: ["15-A"]},
        supply={0: {"ochre": 1, "grey": 1, "red": 1}},
    )
    s.pharaoh = ["white"] * 29
    s.bag["white"] -= 29
    s = act(s, 0, type="end_build")
    assert s.pharaoh[-1] == "red" and s.out == {"grey": 1, "ochre": 1}


def test_ruling_17_round_1_steal_and_takeover_phases_give_no_turns():
    s = position(
        players=2,
        phase="worker",
        round=1,
        start_player=0,
        owners={13: 0, 14: 1},
        overseers={0: ["13-A"], 1: ["14-A"]},
    )
    for seat, other in ((0, 14), (1, 13)):
        assert s.current == seat
        assert not any(B.FIELD_SITE.get(a.get("to", "")) == other for a in E.legal_actions(s, seat))
        s = act(s, seat, type="end_moves")
    assert s.phase == "bid" and s.round == 2


def test_known_limit_plan_steps_show_only_as_move_numbers():
    s = position(phase="plan")
    s = act(s, 0, type="plan", index=0, to="15-A")
    s = act(s, 0, type="plan", index=1, to="7-C")
    s = act(s, 0, type="submit_plan")
    for viewer in (1, 2, None):
        log = E.view(s, viewer)["log"]
        assert [e["key"] for e in log] == ["{player} has submitted a plan."]
        assert "15-A" not in str(log) and "7-C" not in str(log)
        assert log[0]["move"] == 3  # the count of plan steps is visible, their targets not


def test_ruling_18_every_overseer_is_planned_before_a_plan_can_be_submitted():
    s = position(phase="plan")
    s.plans = [[None, None] for _ in range(s.players)]
    assert {"type": "submit_plan"} not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, type="submit_plan")
    # Staying put is a plan like any other and costs the same one action.
    here = s.overseers[0][0]
    assert {"type": "plan", "index": 0, "to": here} in E.legal_actions(s, 0)
    s = act(s, 0, type="plan", index=0, to=here)
    assert {"type": "submit_plan"} not in E.legal_actions(s, 0)
    s = act(s, 0, type="plan", index=1, to="15-A")
    assert {"type": "submit_plan"} in E.legal_actions(s, 0)


def test_ruling_18_a_seat_that_keeps_both_overseers_makes_as_many_plan_actions_as_one_that_moves():
    s = position(phase="plan")
    s.plans = [[None, None] for _ in range(s.players)]
    stay = act(
        act(s, 0, type="plan", index=0, to=s.overseers[0][0]),
        0,
        type="plan",
        index=1,
        to=s.overseers[0][1],
    )
    move = act(act(s, 0, type="plan", index=0, to="15-A"), 0, type="plan", index=1, to="14-A")
    assert stay.move_count == move.move_count


# ruling 19 (rules version 2): the fields of the sites out of play are out of play too

OUT_OF_PLAY = {2: {1, 4, 5, 8, 9, 12}, 3: {4, 8, 12}}


def closed_fields(players):
    return {f for site in OUT_OF_PLAY[players] for f in B.SITE_FIELDS[site]}


@pytest.mark.parametrize("players", [2, 3])
def test_ruling_19_no_move_ends_on_a_field_of_a_site_out_of_play(players):
    for phase, kind, round_ in (("overseer", "overseer", 1), ("worker", "worker", 2)):
        s = position(players=players, phase=phase, round=round_)
        offered = {a["to"] for a in E.legal_actions(s, s.current) if a["type"] == "move"}
        assert not offered & closed_fields(players)
        # ... and everything else the old rules offered is still offered
        before = {a["to"] for a in ENGINE_V1.legal_actions(s, s.current) if a["type"] == "move"}
        assert before & closed_fields(players)
        assert offered == before - closed_fields(players)
        field = sorted(closed_fields(players))[0]
        with pytest.raises(IllegalAction, match="out of play"):
            E.apply(s, s.current, {"type": "move", "figure": kind, "index": 0, "to": field})


@pytest.mark.parametrize("players", [2, 3])
def test_ruling_19_no_plan_names_a_field_of_a_site_out_of_play(players):
    s = position(players=players, phase="plan")
    offered = {a["to"] for a in E.legal_actions(s, 0) if a["type"] == "plan"}
    assert offered and not offered & closed_fields(players)
    # the view lists the same plans (it builds them without the engine's list)
    in_view = {a["action"]["to"] for a in E.view(s, 0)["actions"] if a["action"]["type"] == "plan"}
    assert in_view == offered
    before = {a["to"] for a in ENGINE_V1.legal_actions(s, 0) if a["type"] == "plan"}
    assert offered == before - closed_fields(players)
    with pytest.raises(IllegalAction, match="out of play"):
        E.apply(s, 0, {"type": "plan", "index": 0, "to": sorted(closed_fields(players))[0]})


def test_ruling_19_with_four_players_every_field_is_in_play():
    s = position(players=4, phase="plan")
    assert E.legal_actions(s, 0) == ENGINE_V1.legal_actions(s, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_ruling_19_no_way_between_two_other_nodes_is_shorter_over_such_a_field(players):
    """Steps count as before: the graph without the closed fields keeps every distance."""
    open_nodes = set(B.landing_nodes(players))
    assert open_nodes == set(B.NODES) - closed_fields(players)
    for start in open_nodes:
        reached, frontier = {start: 0}, [start]
        while frontier:
            nxt = []
            for node in frontier:
                for n in B.NEIGHBOURS[node]:
                    if n in open_nodes and n not in reached:
                        reached[n] = reached[node] + 1
                        nxt.append(n)
            frontier = nxt
        assert all(reached[n] == B.DIST[start][n] for n in open_nodes), start


def test_ruling_19_games_started_under_rules_1_may_still_stand_there():
    s = position(players=3, phase="overseer", round=1)
    assert not s.sites[4].in_play
    # 16 -> 17 -> 18 -> 4-A is 3 steps; the site is not claimed
    s = ENGINE_V1.apply(s, 0, {"type": "move", "figure": "overseer", "index": 0, "to": "4-A"})
    assert s.overseers[0][0] == "4-A" and s.sites[4].owner is None
    assert (E.rules_version, ENGINE_V1.rules_version) == (2, 1)
