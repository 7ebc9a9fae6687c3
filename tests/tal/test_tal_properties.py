"""Property tests over many random games for 2, 3 and 4 players and each variant."""

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from enginekit import IllegalAction
from tal.engine import board as B
from tal.engine.scoring import is_complete
from tests.tal.tal_helpers import (
    E,
    assert_no_leak,
    bot_action,
    counterfactual,
    play,
    snapshot,
    stones_total,
)

VARIANTS = {
    "basic": {},
    "advanced": {"advanced": True},
    "expert": {"expert": True},
    "both": {"advanced": True, "expert": True},
}


def candidate_actions(s, rng, k):
    """A random sample of well-formed actions of every type, legal or not."""
    out = []
    for _ in range(k):
        t = rng.choice(
            [
                "bid",
                "end_bids",
                "move",
                "end_moves",
                "plan",
                "submit_plan",
                "steal",
                "end_steal",
                "takeover",
                "end_takeover",
                "build",
                "end_build",
            ]
        )
        if t == "bid":
            a = {"type": t, "group": rng.randint(0, 6), "rings": rng.randint(0, 5)}
        elif t == "move":
            fig = rng.choice(["overseer", "worker"])
            a = {"type": t, "figure": fig, "index": rng.randint(0, 5), "to": rng.choice(B.NODES)}
        elif t == "plan":
            a = {"type": t, "index": rng.randint(0, 2), "to": rng.choice(B.NODES)}
        elif t == "steal":
            a = {"type": t, "site": rng.randint(1, 15), "slot": rng.randint(0, 9)}
        elif t == "takeover":
            a = {"type": t, "site": rng.randint(0, 16)}
        elif t == "build":
            a = {
                "type": t,
                "site": rng.randint(1, 15),
                "slot": rng.randint(0, 9),
                "colour": rng.choice(B.COLOURS),
            }
        else:
            a = {"type": t}
        out.append(a)
    return out


def check_position(s, rng, deep):
    """Legal actions apply, others are refused and leave the state as it was."""
    active = E.active_seats(s)
    before = snapshot(s)
    for seat in range(s.players):
        legal = E.legal_actions(s, seat)
        if seat not in active:
            assert legal == []
            with pytest.raises(IllegalAction):
                E.apply(s, seat, {"type": "end_moves"})
            # nor may it do what an active seat may (which is also well-formed for it)
            for other in sorted(active):
                others = E.legal_actions(s, other)
                for a in rng.sample(others, min(12 if deep else 3, len(others))):
                    with pytest.raises(IllegalAction):
                        E.apply(s, seat, a)
            continue
        assert legal, "an active seat always has an action"
        assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
        sample = rng.sample(legal, min(60 if deep else 4, len(legal)))
        for a in sample:
            assert json.loads(json.dumps(a)) == a
            E.apply(s, seat, a)
        for a in candidate_actions(s, rng, 40 if deep else 6):
            if a in legal:
                E.apply(s, seat, a)
            else:
                with pytest.raises(IllegalAction):
                    E.apply(s, seat, a)
    assert snapshot(s) == before


def run_checked_game(players, options, seed, stats=None):
    rng = random.Random(seed * 7919 + players)
    s = E.setup(players, options, seed)
    moves = []
    phases = set()
    # the history of the current bid or plan phase, for the counterfactual leak check
    hist = []
    step = 0
    while E.result(s) is None:
        assert stones_total(s) == 165
        assert min(s.bag.values()) >= 0
        if step % 23 == 0 or s.phase not in phases:
            check_position(s, rng, deep=step % 69 == 0)
            assert_no_leak(s)
        elif s.phase in ("bid", "plan") and step % 18 == 9:
            assert_no_leak(s)  # the phases with secrets, more often
        phases.add(s.phase)
        if step % 50 == 25:
            s = pickle.loads(pickle.dumps(s))  # the site caches states with pickle
        seat = rng.choice(sorted(E.active_seats(s)))
        a = json.loads(json.dumps(bot_action(s, seat, rng)))
        t = E.apply(s, seat, a)
        if (t.phase, t.round) != (s.phase, s.round):
            if s.phase in ("bid", "plan"):
                # the last moment with every secret of the phase in place: vary each seat's
                # secret choices and compare the views of everybody else
                checked = counterfactual(s, hist, seed=step)
                if stats is not None:
                    stats[s.phase] = stats.get(s.phase, 0) + checked
            hist = []
        else:
            hist.append((s, seat, a))
        s = t
        moves.append((seat, a))
        step += 1
        assert step < 20000
    assert stones_total(s) == 165
    assert_no_leak(s)
    result = E.result(s)
    json.dumps(result)
    assert sorted(result["ranking"]) == list(range(players))
    assert result["winners"] and set(result["winners"]) <= set(range(players))
    # replay gives the identical state
    r = E.setup(players, options, seed)
    for seat, a in moves:
        r = E.apply(r, seat, a)
    assert snapshot(r) == snapshot(s)
    return s


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players, variant):
    stats = {}
    for k in range(2):
        s = run_checked_game(
            players, VARIANTS[variant], seed=players * 100 + len(variant) + k, stats=stats
        )
        assert s.phase == "over"
    # the counterfactual leak check really ran in both phases with secrets
    assert stats.get("bid", 0) >= players and stats.get("plan", 0) >= players, stats


@pytest.mark.parametrize("players", [2, 3, 4])
def test_uniformly_random_games_end_and_conserve_stones(players):
    for seed in range(6):
        options = VARIANTS[sorted(VARIANTS)[seed % 4]]
        s, moves = play(players, options, seed, uniform=True)
        assert s.phase == "over" and stones_total(s) == 165
        assert E.result(s)["reason"]["key"]


@settings(
    max_examples=12, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=4),
    advanced=st.booleans(),
    expert=st.booleans(),
)
def test_any_seed_gives_a_finished_replayable_game(seed, players, advanced, expert):
    options = {"advanced": advanced, "expert": expert}
    s, moves = play(players, options, seed)
    assert s.phase == "over" and stones_total(s) == 165
    r = E.setup(players, options, seed)
    for seat, a in moves:
        r = E.apply(r, seat, a)
    assert snapshot(r) == snapshot(s)
    for viewer in [*range(players), None]:
        json.dumps(E.view(s, viewer))


def test_random_games_reach_steals_takeovers_and_finished_pyramids():
    """The property tests above are only worth something if play gets everywhere."""
    seen = set()
    for seed in range(6):
        s, _ = play(3 + seed % 2, {"expert": True}, seed)
        for e in s.log:
            for word in (
                "takes a",
                "takes over",
                "finishes the pyramid",
                "is occupied",
                "claims site",
                "wins group",
                "is not sold",
            ):
                if word in e["key"]:
                    seen.add(word)
    assert seen >= {"takes a", "takes over", "finishes the pyramid", "claims site", "wins group"}


def check_board(s, prev):
    """What the rule book says about the board holds after every action."""
    # one figure per field
    fields = [p for figures in s.overseers + s.workers for p in figures if B.is_field(p)]
    assert len(fields) == len(set(fields)), "two figures on one field"
    for n, site in s.sites.items():
        assert site.owner is None or site.in_play, n
        # built level by level: a stone on a level only once the level below is full,
        # and stealing takes only from the top, so no gap opens
        for lv in range(1, len(site.levels)):
            if any(c is not None for c in site.levels[lv]):
                assert all(c is not None for c in site.levels[lv - 1]), (n, site.levels)
        assert site.finished == is_complete(site.size, site.levels), n
        # "Aus fertiggestellten Pyramiden duerfen keine Steine entwendet werden" and
        # "Bauplaetze mit fertigen Pyramiden duerfen nicht uebernommen werden"
        before = prev.sites[n]
        if before.finished:
            assert site.levels == before.levels and site.owner == before.owner, n
    for seat in range(s.players):
        assert sum(1 for site in s.sites.values() if site.owner == seat) <= 8  # 8 scarabs
        if s.round == 1 and s.phase != "over":
            # round 1: no figure on another player's site
            for p in s.overseers[seat] + s.workers[seat]:
                site = B.FIELD_SITE.get(p)
                if site is not None:
                    assert s.sites[site].owner in (None, seat), (seat, p)


@pytest.mark.parametrize("variant", ["basic", "advanced", "expert"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_board_rules_after_every_action(players, variant):
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = E.setup(players, VARIANTS[variant], seed)
        while E.result(s) is None:
            seat = rng.choice(sorted(E.active_seats(s)))
            a = bot_action(s, seat, rng)
            t = E.apply(s, seat, a)
            check_board(t, s)
            seen.add(a["type"])
            if any(site.finished for site in t.sites.values()):
                seen.add("finished")
            s = t
    # the checks ran after steals and with finished pyramids on the board
    assert {"steal", "build", "finished"} <= seen, seen


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["16", "15-A", "red", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
TYPES = st.sampled_from(
    ["bid", "end_bids", "move", "end_moves", "plan", "submit_plan", "steal", "build", "?"]
)
KEYS = st.sampled_from(["group", "rings", "figure", "index", "to", "site", "slot", "colour"])
VALUES = st.integers(-1, 16) | st.sampled_from(["16", "15-A", "worker", "overseer", "red", "1"])


@settings(max_examples=150, deadline=None, database=None)
@given(
    junk=JSON | st.builds(lambda t, kv: {"type": t, **kv}, TYPES, st.dictionaries(KEYS, VALUES)),
    phase=st.sampled_from(["bid", "plan", "worker", "build"]),
    seat=st.integers(-1, 4),
)
def test_any_junk_action_is_applied_only_if_legal_and_refused_cleanly_otherwise(junk, phase, seat):
    from tests.tal.tal_helpers import position

    s = position(
        players=3,
        phase=phase,
        owners={15: 0},
        workers={0: ["15-A"]},
        supply={0: {"red": 2}} if phase == "build" else None,
    )
    before = snapshot(s)
    legal = E.legal_actions(s, seat) if 0 <= seat < 3 else []
    try:
        E.apply(s, seat, junk)
    except IllegalAction as e:
        assert junk not in legal
        assert str(e)
    else:
        assert junk in legal
    assert snapshot(s) == before
