"""Turn play, power struggles and takeovers ("Genereller Spielablauf", "Machtübernahme")."""

from siam.engine import ENGINE
from siam.engine.core import INVADER
from tests.siam.helpers import PASS, legal, pass_all, play, position, run, take, types


def test_player_may_play_a_card_or_pass():
    st = position()
    acts = legal(st)
    assert PASS in acts
    assert {a["card"] for a in acts if a["type"] == "play"} == {
        "maharacha",
        "khon_thai",
        "one_vs_one",
        "two_vs_one",
        "rama",
        "lao",
        "malai",
    }
    assert len(acts) == 8  # the two Khon Thai cards are one action


def test_turn_passes_clockwise_to_the_next_seat():
    st = position(turn=1)
    st = run(st, PASS)
    assert ENGINE.active_seats(st) == {2}
    st = run(st, PASS)
    assert ENGINE.active_seats(st) == {0}


def test_struggle_ends_only_after_all_players_passed_in_a_row():
    st = position(provinces={"chiang_mai": "rr", "sukothai": "y"})
    st = run(st, PASS, PASS)
    assert st.controller["chiang_mai"] is None
    st = run(st, play("khon_thai"))  # seat 2 plays: the passes so far no longer count
    while st.pending is not None:
        st = run(st, legal(st)[0])
    assert st.passes == 0
    st = run(st, PASS, PASS)
    assert st.controller["chiang_mai"] is None
    st = run(st, PASS)
    assert st.controller["chiang_mai"] is not None


def test_a_player_who_passed_may_play_again():
    st = position(provinces={"chiang_mai": "rr", "sukothai": "yy"})
    st = run(st, PASS, PASS)
    assert st.passed == [True, True, False]
    st = run(st, play("rama"))
    assert st.passed == [False, False, False]


def test_takeover_by_the_faction_with_most_followers():
    st = position(provinces={"chiang_mai": "rryb", "sukothai": "y"})
    st = pass_all(st)
    assert st.controller["chiang_mai"] == 1
    assert st.counts["chiang_mai"] == [0, 0, 0]


def test_tie_brings_the_british():
    st = position(provinces={"chiang_mai": "rryy", "sukothai": "y"})
    st = pass_all(st)
    assert st.controller["chiang_mai"] == INVADER


def test_three_way_tie_brings_the_british():
    st = position(provinces={"chiang_mai": "ryb", "sukothai": "y"})
    st = pass_all(st)
    assert st.controller["chiang_mai"] == INVADER


def test_empty_province_brings_the_british():
    st = position(provinces={"sukothai": "y"})
    st = pass_all(st)
    assert st.controller["chiang_mai"] == INVADER


def test_saba_invaders_are_the_italians():
    st = position(map_id="saba", provinces={"gojjam": "y"}, track=None)
    st = pass_all(st)
    first = st.track[0]
    assert st.controller[first] == INVADER
    assert st.log[-2]["args"]["invader"] == "Italians"


def test_followers_return_to_the_supply_after_takeover():
    st = position(provinces={"chiang_mai": "rryb"})
    before = list(st.supply)
    st = pass_all(st)
    assert st.supply == [before[0] + 1, before[1] + 2, before[2] + 1]


def test_next_struggle_starts_left_of_the_last_passer():
    st = position(turn=2, provinces={"chiang_mai": "r", "sukothai": "y"})
    st = pass_all(st)  # seats 2, 0, 1 pass; seat 1 passed last
    assert st.controller["chiang_mai"] == 1
    assert ENGINE.active_seats(st) == {2}
    assert st.current() == "sukothai"


def test_struggles_follow_the_track_order():
    track = [
        "ubon",
        "pattani",
        "sukothai",
        "korat",
        "bangkok",
        "chiang_mai",
        "ratchaburi",
        "nakhon_si_thammarat",
    ]
    st = position(track=track, provinces={"ubon": "b", "pattani": "r"})
    st = pass_all(st)
    assert st.resolved == ["ubon"]
    st = pass_all(st)
    assert st.resolved == ["ubon", "pattani"]


def test_game_ends_at_once_when_the_british_hold_four_provinces():
    st = position(
        controllers={"chiang_mai": "british", "sukothai": "british", "korat": "british"},
        provinces={"bangkok": "yr", "ratchaburi": "yyy"},
    )
    assert not st.finished
    st = pass_all(st)  # ubon is empty: the British take it
    assert st.finished
    assert st.controller["bangkok"] is None
    assert ENGINE.result(st)["details"]["ending"] == "invaders"
    assert ENGINE.active_seats(st) == frozenset()


def test_game_ends_after_the_eighth_takeover():
    ctrl = {
        "chiang_mai": "lao",
        "sukothai": "rama",
        "korat": "rama",
        "ubon": "british",
        "bangkok": "rama",
        "ratchaburi": "malai",
        "nakhon_si_thammarat": "malai",
    }
    st = position(controllers=ctrl, provinces={"pattani": "rr"})
    st = pass_all(st)
    assert st.finished
    assert ENGINE.result(st)["details"]["ruling"] == "rama"


def test_player_without_cards_can_only_pass():
    st = position(hands=[[], ["rama"], ["lao"]], provinces={"sukothai": "y"})
    assert legal(st) == [PASS]
    assert types(ENGINE.legal_actions(st, 0)) == {"pass"}
    assert ENGINE.view(st, None)["auto_pass"] is True
    st = run(st, PASS)
    assert ENGINE.view(st, None)["auto_pass"] is False


def test_take_is_mandatory_after_the_action():
    st = position(provinces={"chiang_mai": "r", "sukothai": "y"}, supply="", followers=["", "", ""])
    st = run(st, play("khon_thai"))  # nothing in the supply: nothing is placed
    assert types(legal(st)) == {"take"}
    assert ENGINE.active_seats(st) == {0}
    st = run(st, take("sukothai", "rama"))
    assert st.followers[0] == [1, 0, 0]
    assert ENGINE.active_seats(st) == {1}


def test_tie_below_the_leader_does_not_bring_the_british():
    # Ruling R10: only a tie for the most followers counts; Lao lead 3-1-1.
    st = position(provinces={"chiang_mai": "rrryb", "sukothai": "y"})
    st = pass_all(st)
    assert st.controller["chiang_mai"] == 1
    st = position(provinces={"chiang_mai": "r", "sukothai": "y"})  # 1-0-0 is a majority
    st = pass_all(st)
    assert st.controller["chiang_mai"] == 1


def test_saba_tie_brings_the_italians():
    st = position(map_id="saba", provinces={"tigray": "ryg", "gojjam": "y"})
    st = pass_all(st)
    assert st.controller["tigray"] == INVADER
    assert ENGINE.view(st, None)["track"][0]["controller"] == "italians"


def test_a_new_power_struggle_needs_every_player_to_pass_again():
    st = position(provinces={"chiang_mai": "r", "sukothai": "y"})
    st = pass_all(st)
    assert st.resolved == ["chiang_mai"] and st.passes == 0
    assert st.passed == [False, False, False]
    st = run(st, PASS, PASS)
    assert st.resolved == ["chiang_mai"]
    st = run(st, PASS)
    assert st.resolved == ["chiang_mai", "sukothai"]


def test_a_player_is_never_forced_to_play_a_card():
    st = position(provinces={"chiang_mai": "r"}, hands=[["rama"], ["lao"], ["malai"]])
    for _ in range(3):
        assert PASS in legal(st)
        st = run(st, PASS)
    assert st.controller["chiang_mai"] == 1 and st.cards_left(0) == 1


def test_saba_game_ends_at_once_when_the_italians_hold_four_provinces():
    st = position(
        map_id="saba",
        controllers={"tigray": "italians", "begemder": "italians", "gojjam": "italians"},
        provinces={"shewa": "ggg"},
    )
    st = pass_all(st)  # wollo is empty: the Italians take it
    assert st.finished and st.controller["shewa"] is None
    res = ENGINE.result(st)
    assert res["details"]["ending"] == "invaders" and res["details"]["ruling"] == "italians"
