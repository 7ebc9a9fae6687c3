"""Hidden information: bids and plans stay out of other seats' views and logs."""

import json

import pytest

from tests.tal.tal_helpers import E, act, assert_no_leak, counterfactual, history, position

SENTINEL = 987654321


BID_MOVES = [
    (0, {"type": "bid", "group": 1, "rings": 4}),
    (0, {"type": "bid", "group": 2, "rings": 0}),
    (0, {"type": "end_bids"}),
    (1, {"type": "bid", "group": 1, "rings": 3}),
]


def replay(s, moves):
    for seat, a in moves:
        s = E.apply(s, seat, a)
    return s


def bid_start():
    return position(players=3, phase="bid", start_player=0)


def bid_state():
    return replay(bid_start(), BID_MOVES)


def test_other_seats_bid_values_are_hidden_until_the_reveal():
    s = bid_state()
    # seats 0 and 1 have secrets: vary each and compare everybody else's view
    assert assert_no_leak(s, history(bid_start(), BID_MOVES)) == 2
    for viewer in (1, 2, None):
        v = E.view(s, viewer)
        bids = {b["player"]: b for b in v["market"]["groups"][0]["bids"]}
        assert bids[0]["tiles"] == 1 and "rings" not in bids[0]
        assert v["seats"][0]["tile_values"] is None
        assert v["seats"][0]["tiles_left"] == 6
    own = {b["player"]: b for b in E.view(s, 0)["market"]["groups"][0]["bids"]}
    assert own[0]["rings"] == [4] and "rings" not in own[1]


def test_bid_log_is_redacted_for_others_and_complete_after_the_reveal():
    s = bid_state()
    public = [e for e in E.view(s, 2)["log"] if "lays a tile" in e["key"]]
    assert public and all("rings" not in e["args"] for e in public)
    mine = [e for e in E.view(s, 0)["log"] if "lays a tile" in e["key"]]
    assert [e["args"].get("rings") for e in mine] == [4, 0, None]
    s = act(s, 1, type="end_bids")
    s = act(s, 2, type="end_bids")  # reveal
    for viewer in (0, 1, 2, None):
        log = [e for e in E.view(s, viewer)["log"] if "lays a tile" in e["key"]]
        assert [e["args"]["rings"] for e in log] == [4, 0, 3]
        v = E.view(s, viewer)
        assert v["market"]["revealed"]
        assert v["market"]["groups"][0]["winner"] == 0


def test_view_shows_how_many_tiles_lie_on_each_group():
    v = E.view(bid_state(), None)
    counts = [sum(b["tiles"] for b in g["bids"]) for g in v["market"]["groups"]]
    assert counts[:2] == [2, 1]


PLAN_MOVES = [
    (0, {"type": "plan", "index": 0, "to": "15-A"}),
    (0, {"type": "plan", "index": 1, "to": "7-C"}),
    (0, {"type": "submit_plan"}),
    (1, {"type": "plan", "index": 0, "to": "14-B"}),
]


def plan_start():
    return position(players=3, phase="plan")


def plan_state():
    return replay(plan_start(), PLAN_MOVES)


def test_other_seats_plans_are_hidden_until_the_reveal():
    s = plan_state()
    # views with the secrets replaced by sentinels are identical, and so are the views of
    # games in which seat 0 or seat 1 planned otherwise
    assert assert_no_leak(s, history(plan_start(), PLAN_MOVES)) == 2
    v = E.view(s, 2)
    assert [p["plan_submitted"] for p in v["seats"]] == [True, False, False]
    assert v["seats"][0]["plan"] is None
    assert E.view(s, 0)["seats"][0]["plan"] == ["15-A", "7-C"]
    assert E.view(s, 1)["seats"][1]["plan"] == ["14-B", "16"]


def test_plans_become_public_when_revealed():
    s = plan_state()
    s = act(s, 1, type="submit_plan")
    s = act(s, 2, type="submit_plan")
    v = E.view(s, 2)
    assert v["seats"][0]["plan"] == ["15-A", "7-C"]
    assert any(
        e["key"].startswith("{player} planned") and e["args"]["player"] == 0 for e in v["log"]
    )
    # the steps of planning stay private to the planner
    assert not any(
        e["key"].startswith("{player} plans") and e["args"]["player"] == 0 for e in v["log"]
    )


def test_view_never_contains_seed_rng_or_bag_order():
    s = position(players=2, phase="bid", seed=SENTINEL)
    for viewer in (0, 1, None):
        v = E.view(s, viewer)
        text = json.dumps(v)
        assert str(SENTINEL) not in text
        assert "seed" not in text and "rng" not in text
        assert set(v["bag"]) == {"count", "colours"}


def test_spectator_sees_no_prompt_and_no_actions():
    s = position(players=2, phase="plan")
    v = E.view(s, None)
    assert v["prompt"] is None and v["actions"] == []
    assert v["active_seats"] == [0, 1]
    v0 = E.view(s, 0)
    assert v0["prompt"] is not None
    assert [a["action"] for a in v0["actions"]] == E.legal_actions(s, 0)


def test_view_is_json_serialisable_with_protocol_keys():
    v = E.view(bid_state(), 1)
    assert json.loads(json.dumps(v)) == v
    for key in ("active_seats", "prompt", "actions", "log", "finished"):
        assert key in v
    assert all(set(e) == {"move", "key", "args"} for e in v["log"])


def test_the_leak_check_would_catch_a_leak():
    from tests.tal.tal_helpers import SECRET_STR, tamper

    s = plan_state()
    t = tamper(s, 2)
    assert SECRET_STR not in json.dumps(E.view(t, 2))
    t.plans_revealed = True  # as if the view showed plans too early
    assert SECRET_STR in json.dumps(E.view(t, 2))


@pytest.mark.parametrize("kind", ["bid", "plan"])
def test_the_counterfactual_check_catches_a_log_leak_the_engine_does_not_mark(kind, monkeypatch):
    """The leak check must not trust the engine's own privacy marks on log entries."""
    from tal.engine import view as V

    start, moves = (bid_start(), BID_MOVES) if kind == "bid" else (plan_start(), PLAN_MOVES)
    s = replay(start, moves)
    assert counterfactual(s, history(start, moves)) == 2

    def leaky_log_view(state, viewer):  # every entry in full, as if none were marked private
        return [{"move": e["move"], "key": e["key"], "args": dict(e["args"])} for e in state.log]

    monkeypatch.setattr(V, "_log_view", leaky_log_view)
    assert_no_leak(s)  # the sentinel check alone trusts the marks and misses it
    with pytest.raises(AssertionError):
        counterfactual(s, history(start, moves))


def test_view_describes_the_board_for_drawing():
    s = position(
        players=3,
        phase="worker",
        owners={2: 1},
        levels={2: ["rrrrrrrrr", "g...", "."]},
        workers={1: ["2-A"]},
        overseers={0: ["17"]},
    )
    v = E.view(s, None)
    sites = {x["site"]: x for x in v["sites"]}
    assert len(sites) == 15 and not sites[4]["in_play"]
    two = sites[2]
    assert two["owner"] == 1 and two["level_sides"] == [3, 2, 1] and two["stones"] == 10
    assert two["levels"][1] == ["grey", None, None, None]
    fields = {f["field"]: f for f in two["fields"]}
    assert fields["2-A"]["borders"] == "17" and fields["2-E"]["borders"] == "18"
    assert fields["2-A"]["figure"] == {"player": 1, "kind": "worker", "index": 0}
    assert two["workers"] == [0, 1, 0]
    areas = {a["area"]: a for a in v["areas"]}
    assert {"player": 0, "kind": "overseer", "index": 0} in areas["17"]["figures"]
    assert sorted(areas["16"]["neighbours"][:3]) == ["17", "19", "21"]
    assert v["pharaoh"] == {"stones": [], "count": 0, "capacity": 30, "finished": False}
    assert v["bag"]["count"] == 165 - 10
    assert v["turn"]["steps_left"] == 6 and v["current_player"] == 0
