"""Scoring by the table: best type per pyramid, hidden centre ignored, stripes as defined."""

import pytest

from tal.engine.scoring import (
    is_striped,
    pyramid_points,
    pyramid_type,
)
from tests.tal.tal_helpers import levels_from


def score(size, spec, expert=False):
    lv = levels_from(size, spec)
    return pyramid_type(size, lv, expert), pyramid_points(size, lv, expert)


def test_small_monochrome_scores_5():
    assert score("small", ["rrrr", "r"]) == ("monochrome", 5)


def test_small_layered_scores_3():
    assert score("small", ["rrrr", "b"]) == ("layered", 3)


def test_small_mixed_scores_1():
    assert score("small", ["rrgr", "r"]) == ("mixed", 1)


def test_small_stripes_score_2_only_in_expert_variant():
    # (i + j + l) parity: (0,0) even, (0,1) odd, (1,0) odd, (1,1) even; the top is odd.
    spec = ["rggr", "g"]
    assert score("small", spec, expert=True) == ("stripes", 2)
    assert score("small", spec, expert=False) == ("mixed", 1)


def test_large_monochrome_scores_20():
    assert score("large", ["www www www", "wwww", "w"]) == ("monochrome", 20)


def test_large_hidden_centre_stone_is_ignored():
    assert score("large", ["www wbw www", "wwww", "w"]) == ("monochrome", 20)
    assert score("large", ["rrr rwr rrr", "gggg", "b"]) == ("layered", 10)


def test_rule_book_layered_example_red_grey_black_scores_10():
    assert score("large", ["rrrrrrrrr", "gggg", "b"]) == ("layered", 10)


def test_rule_book_layered_example_white_white_black_scores_10():
    assert score("large", ["wwwwwwwww", "wwww", "b"]) == ("layered", 10)


def test_large_mixed_scores_3():
    assert score("large", ["rrrrrrrrg", "gggg", "b"]) == ("mixed", 3)


def test_large_stripes_with_level_parity_score_7_in_expert_variant():
    # key (i + j + l): bottom a b a / b . b / a b a, middle (l=1) b a / a b, top (l=2) a
    spec = ["rgr g.g rgr".replace(".", "w"), "grrg", "r"]
    assert score("large", spec, expert=True) == ("stripes", 7)
    assert score("large", spec, expert=False) == ("mixed", 3)


def test_large_stripes_along_the_other_diagonal():
    # key (i - j): the same pattern on every level, no shift between levels
    spec = ["rgr grg rgr", "rggr", "r"]
    lv = levels_from("large", spec)
    assert is_striped("large", lv)
    assert score("large", spec, expert=True) == ("stripes", 7)


def test_stripes_need_two_colours_in_the_right_pattern():
    assert not is_striped("small", levels_from("small", ["rrgg", "r"]))  # rows, not diagonals
    assert not is_striped("small", levels_from("small", ["rgbr", "g"]))  # three colours


def test_best_type_wins_monochrome_over_layered():
    assert score("small", ["gggg", "g"], expert=True) == ("monochrome", 5)


@pytest.mark.parametrize(
    "size, spec", [("small", ["rrrr", "."]), ("large", ["rrrrrrrrr", "rrrr", "."])]
)
def test_unfinished_pyramid_scores_nothing(size, spec):
    assert pyramid_points(size, levels_from(size, spec), True) == 0


def test_small_stripes_along_the_other_diagonal():
    # key (i - j): (0,0) even, (0,1) odd, (1,0) odd, (1,1) even; the top (0,0) is even
    assert score("small", ["rggr", "r"], expert=True) == ("stripes", 2)


def test_pharaoh_pyramid_scores_nothing():
    from tests.tal.tal_helpers import E, position

    s = position(players=2, phase="worker")
    s.pharaoh = ["red"] * 30
    s.bag["red"] -= 30
    assert E.scores(s) == [0, 0]
