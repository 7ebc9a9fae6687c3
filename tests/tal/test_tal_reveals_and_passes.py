"""What the site asks of Tal der Könige to take back a whole turn by agreement and to let a
waiting player plan ahead: which actions reveal or draw (``reveals``), and how a seat ends
its turn without choosing anything (``pass_action``)."""

import random

from tal.engine import ENGINE as E


def playout(seed: int, players: int = 3, steps: int = 2500):
    """(state before, seat, action, state after) for every action of a random game."""
    rng = random.Random(seed)
    state = E.setup(players, {}, seed)
    for _ in range(steps):
        if E.result(state) is not None:
            return
        seat = min(E.active_seats(state))
        actions = E.legal_actions(state, seat)
        ends = [a for a in actions if a["type"].startswith("end_") or a["type"] == "submit_plan"]
        action = ends[0] if ends and rng.random() < 0.3 else rng.choice(actions)
        after = E.apply(state, seat, action)
        yield state, seat, action, after
        state = after


def test_only_the_last_bids_the_last_plan_and_a_new_round_reveal_or_draw():
    seen = set()
    for before, _seat, action, after in playout(3):
        revealing = E.reveals(before, after)
        auction = after.auction_revealed and not before.auction_revealed
        plans = after.plans_revealed and not before.plans_revealed
        new_round = after.round != before.round
        assert revealing == (auction or plans or new_round), (action, before.phase, after.phase)
        seen.add((action["type"], revealing))
    assert {("end_bids", True), ("end_bids", False), ("submit_plan", True)} <= seen
    assert ("move", False) in seen and ("bid", False) in seen


def test_a_seat_passes_with_the_end_of_its_phase_and_never_while_plans_are_written():
    phases = set()
    for before, seat, _action, _after in playout(5):
        passing = E.pass_action(before, seat)
        if before.phase == "plan":
            assert passing is None
        else:
            assert passing in E.legal_actions(before, seat), (before.phase, passing)
            assert passing["type"].startswith("end_")
        phases.add(before.phase)
        others = [s for s in range(before.players) if s not in E.active_seats(before)]
        assert all(E.pass_action(before, other) is None for other in others)
    assert {"bid", "overseer", "plan", "worker"} <= phases
