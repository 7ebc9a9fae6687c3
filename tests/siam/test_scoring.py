"""End of the game and who wins ("Spielende und Spielsieg", B7, B14, R4-R7)."""

from enginekit import render_english
from siam.engine import ENGINE
from siam.engine.core import INVADER, _score
from tests.siam.helpers import pass_all, position

B = INVADER
Y, R, BL = 0, 1, 2


def winners(players, followers, takeovers, last_play):
    return _score(players, followers, takeovers, last_play)[0]


# -- The British (Italians) take over ----------------------------------------------------


def test_invaders_most_complete_sets_wins():
    f = [[2, 2, 2], [3, 3, 1], [5, 0, 9]]
    assert winners(3, f, [B, B, B, B], [0, 1, 2]) == [0]


def test_invaders_tie_on_sets_the_most_recent_card_player_wins():
    f = [[2, 2, 2], [2, 3, 2], [0, 0, 0]]
    w, ranking, d = _score(3, f, [B, B, B, B], [5, 3, 7])
    assert w == [0] and d["tiebreak"] == "last_card"
    assert ranking == [0, 1, 2]
    assert winners(3, f, [B, B, B, B], [3, 5, 7]) == [1]


def test_invaders_tie_when_no_tied_player_ever_played_a_card_is_shared():
    # Ruling R5.
    f = [[1, 1, 1], [1, 1, 1], [0, 0, 0]]
    w, _, d = _score(3, f, [B, B, B, B], [-1, -1, 4])
    assert w == [0, 1] and d["tiebreak"] == "shared"


def test_invaders_four_players_team_sets_are_pooled():
    # Seat 0 and 2 together: 3 sets; seats 1 and 3: 2 sets though seat 1 alone has most.
    f = [[1, 2, 0], [2, 2, 2], [2, 1, 3], [0, 0, 0]]
    w, ranking, d = _score(4, f, [B, B, B, B], [0, 1, 2, 3])
    assert w == [0, 2] and d["team_sets"] == [3, 2]
    assert set(ranking[:2]) == {0, 2}


def test_invaders_four_players_team_tie_the_team_that_played_the_last_card_wins():
    f = [[1, 1, 1], [1, 1, 1], [0, 0, 0], [0, 0, 0]]
    assert winners(4, f, [B, B, B, B], [4, 2, 1, 9]) == [1, 3]
    assert winners(4, f, [B, B, B, B], [4, 2, 10, 9]) == [0, 2]


def test_invaders_end_from_a_position():
    st = position(
        players=2,
        controllers={"chiang_mai": "british", "sukothai": "british", "korat": "british"},
        followers=["yrb", "yyrrb"],
        last_play=[3, 2],
    )
    st = pass_all(st)
    res = ENGINE.result(st)
    assert res["winners"] == [0] and res["details"]["ending"] == "invaders"
    assert res["details"]["ruling"] == "british"
    assert "British" in render_english(res["reason"]["key"], res["reason"]["args"])


def test_fourth_british_province_as_the_eighth_takeover_is_the_invaders_ending():
    # "Das Spiel endet sofort, wenn die Briten die Macht in 4 Provinzen übernommen haben"
    # comes before "wenn alle 8 Machtübernahmen stattgefunden haben": Rama's 4 provinces
    # do not rule, complete sets decide.
    ctrl = {
        "chiang_mai": "british",
        "sukothai": "british",
        "korat": "british",
        "ubon": "rama",
        "bangkok": "rama",
        "ratchaburi": "rama",
        "nakhon_si_thammarat": "rama",
    }
    st = position(controllers=ctrl, provinces={"pattani": "yr"}, followers=["yrb", "yyyyy", "rb"])
    st = pass_all(st)  # Rama and Lao tie in pattani: the British take it
    assert st.finished and len(st.resolved) == 8
    res = ENGINE.result(st)
    assert res["details"]["ending"] == "invaders" and res["details"]["ruling"] == "british"
    assert res["details"]["sets"] == [1, 0, 0]
    assert res["winners"] == [0]  # not seat 1, who has the most Rama followers


# -- A faction rules ---------------------------------------------------------------------


def test_ruling_faction_has_most_provinces():
    t = [Y, Y, R, R, R, BL, B, B]
    w, _, d = _score(3, [[5, 0, 0], [0, 1, 0], [0, 0, 9]], t, [0, 1, 2])
    assert d["ruling"] == R and w == [1]


def test_ruling_faction_tie_goes_to_the_latest_takeover_winner():
    t = [Y, Y, R, R, BL, BL, B, B]
    _, _, d = _score(3, [[1, 1, 1]] * 3, t, [0, 1, 2])
    assert d["ruling"] == BL
    t = [Y, BL, R, R, BL, Y, B, B]
    _, _, d = _score(3, [[1, 1, 1]] * 3, t, [0, 1, 2])
    assert d["ruling"] == Y


def test_winner_has_most_followers_of_the_ruling_faction():
    t = [Y, Y, Y, R, BL, B, B, B]
    assert winners(3, [[3, 0, 0], [4, 0, 0], [2, 9, 9]], t, [0, 1, 2]) == [1]


def test_tie_broken_by_followers_of_the_second_placed_faction():
    t = [Y, Y, Y, R, R, BL, B, B]  # Rama rule, Lao second
    w, _, d = _score(3, [[3, 1, 5], [3, 2, 0], [0, 0, 0]], t, [0, 1, 2])
    assert w == [1] and d["tiebreak"] == "second_faction" and d["second"] == R


def test_second_placed_faction_tie_goes_to_the_latest_takeover_winner():
    # Ruling B7: Lao and Malai hold 2 each; Malai won a takeover last, so Malai is second.
    t = [Y, Y, Y, R, BL, R, BL, B]
    w, _, d = _score(3, [[3, 5, 1], [3, 0, 2], [0, 0, 0]], t, [0, 1, 2])
    assert d["second"] == BL and w == [1]


def test_then_the_most_recent_card_player_loses():
    t = [Y, Y, Y, R, R, BL, B, B]
    f = [[3, 1, 0], [3, 1, 0], [3, 1, 0]]
    w, ranking, d = _score(3, f, t, [7, 3, 5])
    assert w == [1] and d["tiebreak"] == "last_card"
    assert ranking == [1, 2, 0]  # applied repeatedly (B14)


def test_a_player_who_never_played_counts_as_least_recent():
    t = [Y, Y, Y, R, R, BL, B, B]
    f = [[3, 1, 0], [3, 1, 0], [0, 0, 0]]
    assert winners(3, f, t, [2, -1, 5]) == [1]


def test_players_no_rule_separates_share_the_win():
    t = [Y, Y, Y, R, R, BL, B, B]
    f = [[3, 1, 0], [3, 1, 0], [0, 0, 0]]
    w, _, d = _score(3, f, t, [-1, -1, 5])
    assert w == [0, 1] and d["tiebreak"] == "shared"


def test_no_second_placed_faction_when_the_others_hold_no_province():
    # Ruling B14: the second-faction tie-break is skipped.
    t = [Y, Y, Y, Y, Y, B, B, B]
    w, _, d = _score(3, [[3, 0, 0], [3, 9, 9], [0, 0, 0]], t, [4, 2, 3])
    assert d["second"] is None
    assert w == [1] and d["tiebreak"] == "last_card"  # seat 0 played more recently


def test_four_players_the_winner_s_partner_wins_too():
    t = [Y, Y, Y, R, R, BL, B, B]
    w, ranking, _ = _score(4, [[1, 0, 0], [5, 0, 0], [0, 0, 0], [2, 0, 0]], t, [0, 1, 2, 3])
    assert w == [1, 3] and ranking[:2] == [1, 3]


def test_four_players_unseparable_best_players_of_both_teams_all_win():
    # Ruling R6.
    t = [Y, Y, Y, R, R, BL, B, B]
    w, _, _ = _score(4, [[2, 0, 0], [2, 0, 0], [0, 0, 0], [0, 0, 0]], t, [-1, -1, 2, 3])
    assert w == [0, 1, 2, 3]


def test_result_names_winners_ranking_ruling_power_and_reason():
    ctrl = {
        "chiang_mai": "lao",
        "sukothai": "rama",
        "korat": "rama",
        "ubon": "british",
        "bangkok": "rama",
        "ratchaburi": "malai",
        "nakhon_si_thammarat": "malai",
    }
    st = position(controllers=ctrl, provinces={"pattani": "rr"}, followers=["yy", "yyy", "r"])
    assert ENGINE.result(st) is None
    st = pass_all(st)
    res = ENGINE.result(st)
    assert res["winners"] == [1] and res["ranking"] == [1, 0, 2]
    assert res["details"]["ruling"] == "rama" and res["details"]["provinces"]["rama"] == 3
    text = render_english(res["reason"]["key"], res["reason"]["args"])
    assert text == "Rama rule Siam with 3 provinces. 1 wins with 3 Rama followers."
    assert ENGINE.view(st, None)["result"] == res


# -- Further rules of "Spielende und Spielsieg" ------------------------------------------


def test_a_complete_set_is_one_follower_of_each_colour():
    # 5 yellow and 5 red without blue make no set; 2 of each make 2.
    f = [[5, 5, 0], [2, 2, 2], [1, 1, 1]]
    w, _, d = _score(3, f, [B, B, B, B], [9, 1, 2])
    assert d["sets"] == [0, 2, 1] and w == [1]


def test_italians_victory_goes_to_the_most_complete_sets():
    st = position(
        map_id="saba",
        controllers={"tigray": "italians", "begemder": "italians", "gojjam": "italians"},
        followers=["yrgg", "yyrrgg", "yyyyyy"],
        last_play=[5, 3, 4],
    )
    st = pass_all(st)
    res = ENGINE.result(st)
    assert res["winners"] == [1] and res["details"]["sets"] == [1, 2, 0]
    assert "Italians" in render_english(res["reason"]["key"], res["reason"]["args"])


def test_faction_rules_even_when_the_british_hold_more_provinces():
    # Ruling R11: short of 4 provinces the British do not rule; the factions compare only
    # among themselves, and complete sets do not matter.
    t = [B, B, B, Y, Y, R, BL, R]
    w, _, d = _score(3, [[0, 3, 0], [3, 3, 3], [0, 2, 0]], t, [0, 1, 2])
    assert d["ending"] == "faction" and d["ruling"] == R
    assert d["second"] == Y and w == [1]  # seats 0 and 1 tie on Lao; seat 1 has more Rama


def test_ruling_faction_three_way_tie_goes_to_the_latest_takeover_winner():
    t = [R, Y, BL, Y, BL, R, B, B]
    _, _, d = _score(3, [[1, 1, 1]] * 3, t, [0, 1, 2])
    assert d["ruling"] == R and d["second"] == BL


def test_invaders_four_players_team_tie_without_any_card_played_is_shared():
    # Ruling R5.
    f = [[1, 1, 1], [1, 1, 1], [0, 0, 0], [0, 0, 0]]
    w, _, d = _score(4, f, [B, B, B, B], [-1, -1, -1, -1])
    assert w == [0, 1, 2, 3] and d["tiebreak"] == "shared"


def test_four_players_partners_tied_as_best_players_win_as_a_team():
    t = [Y, Y, Y, R, R, BL, B, B]
    f = [[3, 0, 0], [2, 0, 0], [3, 0, 0], [1, 0, 0]]
    w, _, d = _score(4, f, t, [-1, 1, -1, 3])
    assert w == [0, 2] and d["best_players"] == [0, 2]


def test_four_players_last_card_tie_break_picks_one_team():
    # The best players of both teams tie on ruling and second faction; the most recent
    # card player (seat 1) loses, so seat 0's team wins.
    t = [Y, Y, Y, R, R, BL, B, B]
    f = [[3, 1, 0], [3, 1, 0], [0, 0, 0], [0, 0, 0]]
    w, _, d = _score(4, f, t, [2, 6, 4, 5])
    assert w == [0, 2] and d["tiebreak"] == "last_card"
