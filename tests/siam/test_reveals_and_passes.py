"""What the site asks of King of Siam to take back a whole turn by agreement and to let a
waiting player plan ahead: nothing is ever revealed or drawn after the set-up; a pass
ends a turn only before a card is played."""

import random

from siam.engine import ENGINE as E


def test_no_action_reveals_or_draws_and_a_pass_is_offered_at_the_start_of_a_turn_only():
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        rng = random.Random(seed)
        state = E.setup(players, {"map": "siam" if seed % 2 else "saba"}, seed)
        while E.result(state) is None:
            seat = state.turn
            passing = E.pass_action(state, seat)
            if state.pending is None:
                assert passing == {"type": "pass"} and passing in E.legal_actions(state, seat)
            else:
                assert passing is None
            assert E.pass_action(state, (seat + 1) % players) is None
            after = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            assert not E.reveals(state, after)
            state = after
