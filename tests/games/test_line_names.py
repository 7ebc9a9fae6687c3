"""Every history line has a name of its own: a move that wrote several lines gives each
a letter ("12a", "12b"); a move of one line keeps its bare number."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.numbering import Numbering, line_names


def lines(*moves):
    return [{"move": m, "key": "", "args": {}} for m in moves]


def test_a_move_of_several_lines_names_each_with_a_letter():
    assert line_names(lines(0, 0, 1, 2, 3, 3, 3, 4)) == ["a", "b", "1", "2", "3a", "3b", "3c", "4"]


def test_a_single_set_up_line_needs_no_letter():
    assert line_names(lines(0, 1)) == ["", "1"]


def test_past_the_alphabet_the_letters_go_on_in_pairs():
    assert line_names(lines(*[5] * 28))[25:] == ["5z", "5aa", "5ab"]


@settings(max_examples=200)
@given(st.sets(st.integers(1, 60)), st.integers(0, 80))
def test_the_positions_of_a_whole_game_are_those_asked_one_by_one(hidden, extra):
    last = max(hidden, default=0) + extra
    numbers = Numbering(tuple(sorted(hidden)), last)
    assert numbers.positions() == [numbers.position(n) for n in range(numbers.total + 1)]
