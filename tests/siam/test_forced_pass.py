"""B10/R8: a player who has no choice but to pass is passed for by the site."""

from siam.engine import ENGINE, core


def play_until(state, stop):
    for _ in range(2000):
        if stop(state) or state.finished:
            break
        state = ENGINE.apply(state, state.turn, ENGINE.legal_actions(state, state.turn)[0])
    return state


def test_no_forced_move_while_the_player_has_a_choice():
    state = ENGINE.setup(2, {"map": "siam"}, 7)
    assert ENGINE.forced_action(state) is None


def test_a_player_without_cards_is_forced_to_pass():
    state = ENGINE.setup(2, {"map": "siam"}, 7)
    state = play_until(state, lambda s: core.legal(s, s.turn) == [{"type": "pass"}])
    assert not state.finished
    assert ENGINE.forced_action(state) == (state.turn, {"type": "pass"})
