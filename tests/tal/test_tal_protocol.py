"""The engine protocol: illegal actions, taking back, log numbering, immutability."""

import json
import pickle
import random

import pytest

from enginekit import IllegalAction
from tests.tal.tal_helpers import E, act, position, snapshot


@pytest.mark.parametrize(
    "action",
    [
        None,
        "bid",
        [],
        {},
        {"type": 3},
        {"type": "dance"},
        {"type": "bid", "group": 1},
        {"type": "bid", "group": 1, "rings": 4, "extra": 1},
        {"type": "bid", "group": "1", "rings": 4},
        {"type": "bid", "group": True, "rings": 4},
        {"type": "bid", "group": 1, "rings": 5},
        {"type": "bid", "group": 99, "rings": 4},
        {"type": "bid", "group": 1, "rings": [4]},
        {"type": "move", "figure": "worker", "index": 0, "to": "15-A"},
        {"type": "build", "site": 15, "slot": 0, "colour": "red"},
    ],
)
def test_malformed_or_illegal_actions_are_refused_leaving_the_state_unchanged(action):
    s = position(players=3, phase="bid")
    before = pickle.dumps(s)
    with pytest.raises(IllegalAction) as info:
        E.apply(s, 0, action)
    assert pickle.dumps(s) == before
    assert str(info.value) and info.value.message["key"]


def test_acting_out_of_turn_is_refused():
    s = position(players=3, phase="bid", start_player=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(s, 1, type="end_bids")
    with pytest.raises(IllegalAction, match="no such seat"):
        act(s, 7, type="end_bids")
    assert E.legal_actions(s, 1) == []


def test_no_actions_after_the_game_is_over():
    s = position(players=2, phase="worker")
    s.phase = "over"
    s.end_reason = "bag"
    with pytest.raises(IllegalAction, match="over"):
        act(s, 0, type="end_moves")
    assert E.active_seats(s) == frozenset()
    assert E.result(s) is not None


def test_apply_returns_a_new_state_and_never_mutates_its_input():
    s = position(players=3, phase="worker")
    before = pickle.dumps(s)
    t = act(s, 0, type="move", figure="worker", index=0, to="15-A")
    assert pickle.dumps(s) == before
    assert t is not s and t.workers[0][0] == "15-A" and s.workers[0][0] == "16"


def test_state_pickles_and_replays_identically():
    s = E.setup(3, {"expert": True}, 42)
    s2 = pickle.loads(pickle.dumps(s))
    a = E.legal_actions(s, s.current)[0]
    assert snapshot(E.apply(s, s.current, a)) == snapshot(E.apply(s2, s.current, a))
    assert snapshot(s2) == snapshot(s)


def test_can_undo_within_a_turn_but_not_across_a_hand_over():
    s = position(players=3, phase="bid", start_player=0)
    assert not E.can_undo(s, 0)
    s = act(s, 0, type="bid", group=1, rings=4)
    assert E.can_undo(s, 0) and not E.can_undo(s, 1)
    s = act(s, 0, type="end_bids")
    assert not E.can_undo(s, 0)


def test_cannot_undo_a_reveal():
    s = position(players=2, phase="bid", start_player=0)
    s = act(s, 0, type="end_bids")
    s = act(s, 1, type="bid", group=1, rings=2)
    assert E.can_undo(s, 1)
    s = act(s, 1, type="end_bids")  # reveal and draw nothing; plans begin
    assert not E.can_undo(s, 1)


def test_plan_steps_can_be_undone_but_not_the_submission():
    s = position(players=2, phase="plan")
    s = act(s, 0, type="plan", index=0, to="15-A")
    assert E.can_undo(s, 0)
    s = act(s, 1, type="plan", index=0, to="14-A")
    assert E.can_undo(s, 1) and not E.can_undo(s, 0)  # only the last action
    s = act(s, 1, type="submit_plan")
    assert not E.can_undo(s, 1)


def test_moves_steals_takeovers_and_builds_can_be_undone_in_the_turn():
    s = position(players=2, phase="worker")
    s = act(s, 0, type="move", figure="worker", index=0, to="15-A")
    assert E.can_undo(s, 0)
    s = position(
        players=2,
        phase="build",
        owners={15: 0},
        workers={0: ["15-A"]},
        supply={0: {"red": 2}},
    )
    s = act(s, 0, type="build", site=15, slot=0, colour="red")
    assert E.can_undo(s, 0)
    s = act(s, 0, type="build", site=15, slot=1, colour="red")  # the last stone
    assert E.can_undo(s, 0)
    assert E.legal_actions(s, 0) == [{"type": "end_build"}]
    s = act(s, 0, type="end_build")
    assert not E.can_undo(s, 0)


def test_log_entries_are_numbered_by_move():
    s = E.setup(2, {}, 5)
    assert {e["move"] for e in E.view(s, None)["log"]} == {0}
    seat = s.current
    s = act(s, seat, type="bid", group=1, rings=1)
    assert E.view(s, seat)["log"][-1]["move"] == 1
    s = act(s, seat, type="end_bids")
    assert E.view(s, seat)["log"][-1]["move"] == 2


def test_actions_in_the_view_are_exactly_the_legal_actions_with_labels():
    s = position(players=2, phase="worker")
    v = E.view(s, 0)
    assert [a["action"] for a in v["actions"]] == E.legal_actions(s, 0)
    assert all(set(a["label"]) == {"key", "args"} for a in v["actions"])
    assert v["prompt"]["key"]


def _labelled(s, seat):
    """What the view's actions must be: legal_actions, in order, labelled one by one."""
    from tal.engine.view import action_label

    return [{"action": a, "label": action_label(s, seat, a)} for a in E.legal_actions(s, seat)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_views_actions_are_the_labelled_legal_actions_in_every_phase(players):
    """The view builds plan actions from shared entries and labels moves inline (speed):
    along whole games, phase by phase, they must be what legal_actions and action_label
    give, for every seat."""
    from tests.tal.tal_helpers import bot_action

    rng = random.Random(players)
    s = E.setup(players, {"expert": players == 3}, players)
    phases = set()
    while E.result(s) is None:
        for seat in range(players):
            assert E.view(s, seat)["actions"] == _labelled(s, seat)
        phases.add(s.phase)
        seat = rng.choice(sorted(E.active_seats(s)))
        s = E.apply(s, seat, bot_action(s, seat, rng))
    assert {"bid", "plan", "worker", "build"} <= phases


@pytest.mark.parametrize(
    "plans",
    [
        [None, None],  # nothing planned yet: every target within 6 steps
        ["17", None],  # one overseer planned: the other gets what is left
        ["12-A", "16"],  # far: budget 0 for the other (only staying put, unless planned)
        ["12-A", "12-B"],  # more than 6 steps together (a tampered state): nothing left
    ],
)
def test_plan_actions_in_the_view_follow_the_budget_and_leave_out_the_current_target(plans):
    s = position(players=2, phase="plan", overseers={0: ["16", "16"]})
    s.plans[0] = list(plans)
    assert E.view(s, 0)["actions"] == _labelled(s, 0)


def test_memoised_parts_of_the_view_follow_a_state_changed_in_place():
    """Site and market views are memoised by what they show, never by the state object:
    a state changed in place after it was viewed is shown as it now is (each part on its
    own), and views given out before keep what they showed."""
    s = position(players=3, phase="bid", owners={2: 1}, workers={1: ["2-A"]})
    s.bids[0].append([1, 3])
    first = E.view(s, 1)
    shown = json.dumps(first)

    def site_two():
        return E.view(s, 1)["sites"][1]

    s.sites[2].levels[0][0] = "red"
    assert site_two()["levels"][0][0] == "red" and site_two()["stones"] == 1
    s.sites[2].levels[0][0] = "grey"
    assert site_two()["levels"][0][0] == "grey" and site_two()["stones"] == 1
    s.sites[2].owner = 0
    assert site_two()["owner"] == 0
    s.workers[1][0] = "2-B"
    assert [f["field"] for f in site_two()["fields"] if f["figure"]] == ["2-B"]
    s.bids[0][0][1] = 4  # the same number of tiles, another value
    assert E.view(s, 1)["market"]["groups"][0]["bids"][0]["rings"] == [4]
    assert json.dumps(first) == shown
    # back as it was: the same view as before
    s.sites[2].levels[0][0] = None
    s.sites[2].owner = 1
    s.workers[1][0] = "2-A"
    s.bids[0][0][1] = 3
    assert json.dumps(E.view(s, 1)) == shown
