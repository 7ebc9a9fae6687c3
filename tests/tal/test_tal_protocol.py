"""The engine protocol: illegal actions, taking back, log numbering, immutability."""

import pickle

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
