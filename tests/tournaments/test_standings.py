"""Points and standings against tables worked out by hand."""

from __future__ import annotations

from fractions import Fraction

from tournaments.pairing import standings
from tournaments.pairing.standings import Played, game_points, title_scores

HALF, THIRD = Fraction(1, 2), Fraction(1, 3)
A, B, C, D = 1, 2, 3, 4
SEEDS = {A: 1, B: 2, C: 3, D: 4}


def win(first, second, scores=(1.0, 0.0)):
    return Played((first, second), (Fraction(1), Fraction(0)), scores)


def draw(first, second):
    return Played((first, second), (HALF, HALF), (0.0, 0.0))


def test_a_game_is_one_point_shared_by_its_winners():
    assert game_points(2, [0], []) == (1, 0)
    assert game_points(3, [0, 2], []) == (HALF, 0, HALF)  # a shared win, a team
    assert game_points(2, [], []) == (HALF, HALF)  # a draw
    assert game_points(3, [], []) == (THIRD, THIRD, THIRD)


def test_running_out_of_time_is_a_loss_whatever_the_game_made_of_it():
    assert game_points(2, [1], late=[0]) == (0, 1)
    # aborted for the timeout (policy "abort"): the others share the point
    assert game_points(3, [], late=[1]) == (HALF, 0, HALF)
    # a computer that stood in for the late player won: the point is the other's
    assert game_points(2, [0], late=[0]) == (0, 1)
    # everyone late: nobody scores
    assert game_points(2, [], late=[0, 1]) == (0, 0)


def test_the_titles_own_score_is_its_points_or_else_its_places():
    tal = {"winners": [1], "ranking": [1, 0, 2], "details": {"points": [31, 40, 12]}}
    assert title_scores(3, tal) == (31.0, 40.0, 12.0)
    siam = {"winners": [2], "ranking": [2, 0, 1], "details": {"ending": "faction"}}
    assert title_scores(3, siam) == (1.0, 0.0, 2.0)
    assert title_scores(2, {"winners": [], "ranking": [], "details": {}}) == (0.0, 0.0)


def test_a_swiss_table_by_hand_buchholz_then_sonneborn_berger():
    # Round 1: A beats C, B and D draw. Round 2: B beats A, C beats D.
    games = [win(A, C), draw(B, D), win(B, A), win(C, D)]
    rows = standings.standings([A, B, C, D], SEEDS, games)
    table = {r.entrant: (r.place, r.points, r.buchholz, r.sonneborn_berger) for r in rows}
    # points: A 1, B 1½, C 1, D ½
    # Buchholz: A = C 1 + B 1½; B = D ½ + A 1; C = A 1 + D ½; D = B 1½ + C 1
    # Sonneborn-Berger: A = 1·C; B = ½·D + 1·A; C = 1·D; D = ½·B
    assert table == {
        B: (1, Fraction(3, 2), Fraction(3, 2), Fraction(5, 4)),
        A: (2, Fraction(1), Fraction(5, 2), Fraction(1)),
        C: (3, Fraction(1), Fraction(3, 2), HALF),
        D: (4, HALF, Fraction(5, 2), Fraction(3, 4)),
    }


def test_a_bye_scores_a_point_and_adds_nothing_to_buchholz():
    rows = standings.standings([A, B, C], SEEDS, [win(A, B)], byes=[(C, Fraction(1))])
    by = {r.entrant: r for r in rows}
    assert by[C].points == 1 and by[C].buchholz == 0 and by[C].byes == 1
    # A and C tie on points, Buchholz (0 each) and SB; A has the score of a won game.
    assert [r.entrant for r in rows] == [A, C, B]


def test_round_robin_ties_go_to_sonneborn_berger():
    # A beats B, B beats C, C beats D, D beats A, A beats C, B beats D:
    # A 2, B 2, C 1, D 1. SB: A = B 2 + C 1 = 3; B = C 1 + D 1 = 2.
    games = [win(A, B), win(B, C), win(C, D), win(D, A), win(A, C), win(B, D)]
    rows = standings.standings([A, B, C, D], SEEDS, games, tiebreaks=[standings.SONNEBORN_BERGER])
    assert [(r.entrant, r.points, r.sonneborn_berger) for r in rows][:2] == [
        (A, 2, 3),
        (B, 2, 2),
    ]


def test_then_head_to_head_among_the_tied_then_the_titles_score_then_the_seed():
    # A beats B, C beats A, B beats D: A, B and C have a point each. Among the three,
    # A and C scored one point each in their games with each other, B none (its win
    # was against D). A and C are then split by the game's own score: C scored more.
    games = [win(A, B, (5.0, 0.0)), win(C, A, (9.0, 1.0)), win(B, D, (2.0, 0.0))]
    rows = standings.standings([A, B, C, D], SEEDS, games, tiebreaks=[])
    assert [r.entrant for r in rows] == [C, A, B, D]
    by = {r.entrant: r for r in rows}
    assert (by[A].head_to_head, by[B].head_to_head, by[C].head_to_head) == (1, 0, 1)
    assert (by[A].score, by[C].score) == (6.0, 9.0)
    # The same results with equal game scores: the better seed (A) goes first.
    level = [win(A, B), win(C, A), win(B, D)]
    assert [r.entrant for r in standings.standings([A, B, C, D], SEEDS, level, tiebreaks=[])][
        :2
    ] == [A, C]


def test_multi_player_tables_average_the_tablemates():
    # One three-player game: A wins, B and C lose. Then B wins a two-player game over C.
    three = Played((A, B, C), (Fraction(1), Fraction(0), Fraction(0)), (2.0, 1.0, 0.0))
    rows = standings.standings([A, B, C], SEEDS, [three, win(B, C)])
    by = {r.entrant: r for r in rows}
    # Totals: A 1, B 1, C 0. A's Buchholz: (B 1 + C 0) / 2; B's: (A 1 + C 0)/2 + C 0.
    assert by[A].buchholz == HALF and by[B].buchholz == HALF
    assert by[A].sonneborn_berger == HALF and by[B].sonneborn_berger == 0
    assert [r.entrant for r in rows] == [A, B, C]
