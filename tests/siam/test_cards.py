"""The action cards (rule book "Die Aktionen im Einzelnen") and rulings B2-B6, B11-B13, R1-R3."""

import pytest

from enginekit import IllegalAction
from siam.engine import ENGINE
from tests.siam.helpers import (
    PASS,
    counts,
    king,
    legal,
    pass_all,
    pick,
    place,
    play,
    position,
    run,
    take,
    tile,
    types,
)

# Siam map: chiang_mai - sukothai - {korat, bangkok, ratchaburi}; korat - ubon, bangkok;
# bangkok - ratchaburi; ratchaburi - nakhon_si_thammarat - pattani.


def picks(st):
    return {(a["province"], a["faction"]) for a in legal(st) if a["type"] == "pick"}


def places(st):
    return {(a["faction"], a["province"]) for a in legal(st) if a["type"] == "place"}


def finish_turn(st):
    """Take the first legal follower so the turn ends."""
    assert types(legal(st)) == {"take"}
    return run(st, legal(st)[0])


# -- Maharacha ---------------------------------------------------------------------------


def test_maharacha_swaps_two_face_up_tiles_and_marks_one_with_a_king():
    st = position(provinces={"korat": "y"})
    st = run(st, play("maharacha"))
    assert {a["province"] for a in legal(st)} == set(st.track)
    st = run(st, tile("korat"), tile("pattani"))
    assert st.track.index("pattani") == 2 and st.track.index("korat") == 7
    assert legal(st) == [king("korat"), king("pattani")]
    st = run(st, king("pattani"))
    assert st.kings == ["pattani"]
    assert types(legal(st)) == {"take"}


def test_maharacha_tile_with_king_marker_cannot_be_swapped():
    st = position(provinces={"korat": "y"}, kings=["korat", "ubon"])
    st = run(st, play("maharacha"))
    assert {a["province"] for a in legal(st)} == set(st.track) - {"korat", "ubon"}
    with pytest.raises(IllegalAction):
        run(st, tile("korat"))


def test_maharacha_only_face_up_tiles():
    st = position(provinces={"korat": "y"}, controllers={"chiang_mai": "lao"})
    st = run(st, play("maharacha"))
    assert "chiang_mai" not in {a["province"] for a in legal(st)}


def test_maharacha_may_change_the_current_struggle():
    # Ruling B5: the tile being fought over may be swapped.
    st = position(provinces={"chiang_mai": "rr", "ubon": "bb"})
    assert st.current() == "chiang_mai"
    st = run(st, play("maharacha"), tile("chiang_mai"), tile("ubon"), king("chiang_mai"))
    assert st.current() == "ubon"
    st = finish_turn(st)
    st = pass_all(st)
    assert st.controller["ubon"] == 2 and st.controller["chiang_mai"] is None


def test_maharacha_without_two_free_tiles_does_nothing():
    # Ruling R2: no swap, no King marker; the follower is still taken.
    ctrl = {p: "lao" for p in ["chiang_mai", "sukothai", "korat", "ubon", "bangkok"]}
    ctrl["nakhon_si_thammarat"] = "rama"
    st = position(controllers=ctrl, provinces={"pattani": "b"}, kings=["ratchaburi"])
    st = run(st, play("maharacha"))
    assert st.kings == ["ratchaburi"]
    assert any(e["key"] == "No two tiles can be swapped." for e in st.log)
    assert legal(st) == [take("pattani", "malai")]


# -- Khon Thai ---------------------------------------------------------------------------


def test_khon_thai_places_one_follower_of_each_faction_anywhere_unresolved():
    st = position(provinces={"korat": "y"}, controllers={"chiang_mai": "lao"})
    st = run(st, play("khon_thai"))
    unresolved = set(st.track) - {"chiang_mai"}
    assert places(st) == {(f, p) for f in ("rama", "lao", "malai") for p in unresolved}
    st = run(st, place("lao", "korat"))  # any order (B13)
    assert {f for f, _ in places(st)} == {"rama", "malai"}
    st = run(st, place("malai", "korat"), place("rama", "korat"))  # all in one province
    assert counts(st, "korat") == {"rama": 2, "lao": 1, "malai": 1}
    assert types(legal(st)) == {"take"}


def test_khon_thai_skips_a_faction_without_followers_in_the_supply():
    st = position(provinces={"korat": "y"}, supply="yr")
    st = run(st, play("khon_thai"))
    assert {f for f, _ in places(st)} == {"rama", "lao"}
    st = run(st, place("rama", "ubon"), place("lao", "ubon"))
    assert types(legal(st)) == {"take"}
    assert st.supply == [0, 0, 0]


def test_khon_thai_with_empty_supply_places_nothing():
    st = position(provinces={"korat": "y"}, supply="")
    st = run(st, play("khon_thai"))
    assert types(legal(st)) == {"take"}
    assert any(e["key"] == "No follower can be placed." for e in st.log)


# -- 1 vs 1 ------------------------------------------------------------------------------


def test_one_vs_one_swaps_between_any_two_provinces():
    st = position(provinces={"chiang_mai": "rr", "pattani": "b", "korat": "y"})
    st = run(st, play("one_vs_one"))
    assert picks(st) == {("chiang_mai", "lao"), ("pattani", "malai"), ("korat", "rama")}
    st = run(st, pick("chiang_mai", "lao"))
    assert picks(st) == {("pattani", "malai"), ("korat", "rama")}  # another province
    st = run(st, pick("pattani", "malai"))
    assert counts(st, "chiang_mai") == {"rama": 0, "lao": 1, "malai": 1}
    assert counts(st, "pattani") == {"rama": 0, "lao": 1, "malai": 0}
    assert types(legal(st)) == {"take"}


def test_one_vs_one_may_swap_followers_of_the_same_colour():
    st = position(provinces={"chiang_mai": "r", "pattani": "r"})
    st = run(st, play("one_vs_one"), pick("pattani", "lao"), pick("chiang_mai", "lao"))
    assert types(legal(st)) == {"take"}


def test_one_vs_one_as_far_as_possible_nothing_to_swap():
    st = position(provinces={"chiang_mai": "rr"})
    st = run(st, play("one_vs_one"))
    assert types(legal(st)) == {"take"}
    assert any(e["key"] == "Nothing can be swapped." for e in st.log)
    assert st.swap_memory is None


# -- 2 vs 1 ------------------------------------------------------------------------------


def test_two_vs_one_swaps_two_for_one_between_adjacent_provinces():
    st = position(provinces={"chiang_mai": "rr", "sukothai": "y", "pattani": "b"})
    st = run(st, play("two_vs_one"))
    assert picks(st) == {("chiang_mai", "lao")}
    st = run(st, pick("chiang_mai", "lao"))
    assert picks(st) == {("chiang_mai", "lao")}
    st = run(st, pick("chiang_mai", "lao"))
    assert picks(st) == {("sukothai", "rama")}  # pattani is not adjacent
    st = run(st, pick("sukothai", "rama"))
    assert counts(st, "chiang_mai") == {"rama": 1, "lao": 0, "malai": 0}
    assert counts(st, "sukothai") == {"rama": 0, "lao": 2, "malai": 0}


def test_two_vs_one_two_followers_of_different_colours_in_either_order():
    st = position(provinces={"chiang_mai": "ry", "sukothai": "b"})
    st = run(st, play("two_vs_one"))
    assert picks(st) == {("chiang_mai", "lao"), ("chiang_mai", "rama")}
    st = run(st, pick("chiang_mai", "rama"))
    assert picks(st) == {("chiang_mai", "lao")}


def test_two_vs_one_falls_back_to_one_for_one_between_adjacent_provinces():
    # Ruling B4.
    st = position(provinces={"chiang_mai": "r", "sukothai": "y", "pattani": "bb"})
    st = run(st, play("two_vs_one"))
    assert ENGINE.view(st, 0)["pending"]["fallback"] is True
    assert picks(st) == {("chiang_mai", "lao"), ("sukothai", "rama")}
    st = run(st, pick("sukothai", "rama"), pick("chiang_mai", "lao"))
    assert counts(st, "chiang_mai") == {"rama": 1, "lao": 0, "malai": 0}
    assert types(legal(st)) == {"take"}


def test_two_vs_one_nothing_moves_but_the_follower_is_taken():
    st = position(provinces={"chiang_mai": "r", "pattani": "b"})
    st = run(st, play("two_vs_one"))
    assert set(map(str, legal(st))) == {
        str(take("chiang_mai", "lao")),
        str(take("pattani", "malai")),
    }


# -- Faction cards -----------------------------------------------------------------------


def test_faction_card_places_next_to_a_province_the_faction_controls():
    st = position(provinces={"sukothai": "y"}, controllers={"korat": "lao", "chiang_mai": "rama"})
    st = run(st, play("lao"))
    assert {p for _, p in places(st)} == {"sukothai", "ubon", "bangkok"}


def test_faction_card_uses_the_uncontrolled_home_but_not_the_home_itself():
    # Ruling B11: home chiang_mai is an anchor; its only neighbour is sukothai.
    st = position(provinces={"sukothai": "y"})
    st = run(st, play("lao"))
    assert places(st) == {("lao", "sukothai")}
    st = run(st, place("lao", "sukothai"), place("lao", "sukothai"))
    assert counts(st, "sukothai")["lao"] == 2


def test_faction_card_home_controlled_by_the_faction_is_still_an_anchor():
    st = position(provinces={"sukothai": "y"}, controllers={"chiang_mai": "lao"})
    st = run(st, play("lao"))
    assert places(st) == {("lao", "sukothai")}


def test_faction_card_home_controlled_by_others_is_no_anchor():
    st = position(provinces={"sukothai": "y"}, controllers={"chiang_mai": "british"})
    st = run(st, play("lao"))
    assert types(legal(st)) == {"take"}
    assert any(e["key"] == "No follower can be placed." for e in st.log)


def test_faction_card_home_is_a_target_when_next_to_another_anchor():
    st = position(provinces={"sukothai": "y"}, controllers={"korat": "rama"})
    st = run(st, play("rama"))
    assert {p for _, p in places(st)} == {"sukothai", "ubon", "bangkok", "ratchaburi"}
    st = run(st, place("rama", "bangkok"), place("rama", "ubon"))  # two provinces
    assert counts(st, "bangkok")["rama"] == 1 and counts(st, "ubon")["rama"] == 1


def test_faction_card_places_as_many_as_the_supply_holds():
    # Ruling R3.
    st = position(provinces={"sukothai": "y"}, supply="r")
    st = run(st, play("lao"), place("lao", "sukothai"))
    assert types(legal(st)) == {"take"}


# -- The follower take (B2) --------------------------------------------------------------


def test_follower_is_taken_only_from_unresolved_provinces():
    st = position(provinces={"sukothai": "yb", "korat": "r"}, controllers={"chiang_mai": "lao"})
    st = run(st, play("khon_thai"))
    for f in ("rama", "lao", "malai"):
        st = run(st, place(f, "ubon"))
    assert {(a["province"], a["faction"]) for a in legal(st)} == {
        ("sukothai", "rama"),
        ("sukothai", "malai"),
        ("korat", "lao"),
        ("ubon", "rama"),
        ("ubon", "lao"),
        ("ubon", "malai"),
    }
    before = list(st.followers[0])
    st = run(st, take("korat", "lao"))
    assert st.followers[0][1] == before[1] + 1
    assert ENGINE.active_seats(st) == {1}


def test_follower_take_is_skipped_when_no_province_holds_a_follower():
    st = position(supply="")
    st = run(st, play("khon_thai"))
    assert ENGINE.active_seats(st) == {1}
    assert st.log[-1]["key"] == "There is no follower to take."


# -- No undo (B3, B12, R1) ---------------------------------------------------------------


def _first_swap():
    st = position(provinces={"chiang_mai": "rr", "pattani": "bb", "korat": "yyy"})
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"), pick("pattani", "malai"))
    return run(st, take("korat", "rama"))


def test_one_vs_one_may_not_undo_the_previous_one_vs_one():
    st = run(_first_swap(), play("one_vs_one"))
    start = run(st, pick("chiang_mai", "malai"))
    assert ("pattani", "lao") not in picks(start)  # other pieces, same colours (B12)
    assert ("pattani", "malai") in picks(start) and ("korat", "rama") in picks(start)
    start = run(st, pick("pattani", "lao"))
    assert ("chiang_mai", "malai") not in picks(start)
    with pytest.raises(IllegalAction) as err:
        run(start, pick("chiang_mai", "malai"))
    assert "undo" in str(err.value)


def test_no_undo_ignores_passes_in_between_and_any_player():
    st = run(_first_swap(), PASS, play("one_vs_one"))  # seat 1 passes, seat 2 plays
    st = run(st, pick("chiang_mai", "malai"))
    assert ("pattani", "lao") not in picks(st)


def test_another_card_in_between_lifts_the_no_undo_restriction():
    st = run(_first_swap(), play("khon_thai"))
    for f in ("rama", "lao", "malai"):
        st = run(st, place(f, "ubon"))
    st = run(st, take("ubon", "rama"), play("one_vs_one"), pick("chiang_mai", "malai"))
    assert ("pattani", "lao") in picks(st)


def test_one_vs_one_and_two_vs_one_do_not_restrict_each_other():
    st = position(provinces={"chiang_mai": "r", "sukothai": "y", "korat": "b"})
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"), pick("sukothai", "rama"))
    st = run(st, take("korat", "malai"), play("two_vs_one"))  # fallback 1-for-1
    st = run(st, pick("chiang_mai", "rama"))
    assert ("sukothai", "lao") in picks(st)


def test_swap_card_that_moved_nothing_sets_no_restriction():
    st = position(provinces={"chiang_mai": "r", "sukothai": "y"}, supply="")
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"), pick("sukothai", "rama"))
    st = run(st, take("chiang_mai", "rama"))  # sukothai "r" left, chiang_mai empty
    st = run(st, play("one_vs_one"))  # nothing can be swapped
    assert st.swap_memory is None
    st = run(st, take("sukothai", "lao"))
    assert st.swap_memory is None


def test_two_vs_one_may_not_undo_the_previous_two_vs_one():
    st = position(provinces={"sukothai": "rry", "chiang_mai": "y", "pattani": "b"})
    st = run(st, play("two_vs_one"), pick("sukothai", "lao"), pick("sukothai", "lao"))
    st = run(st, pick("chiang_mai", "rama"), take("pattani", "malai"))
    assert counts(st, "chiang_mai")["lao"] == 2 and counts(st, "sukothai")["rama"] == 2
    st = run(st, play("two_vs_one"))
    # chiang_mai's two Lao for sukothai's Rama would undo it: only sukothai may give two.
    assert picks(st) == {("sukothai", "rama")}


def test_fallback_when_every_two_for_one_would_undo():
    # Ruling B12: the 1-for-1 fallback applies.
    st = position(provinces={"sukothai": "rr", "chiang_mai": "y", "pattani": "b"})
    st = run(st, play("two_vs_one"), pick("sukothai", "lao"), pick("sukothai", "lao"))
    st = run(st, pick("chiang_mai", "rama"), take("pattani", "malai"))
    st = run(st, play("two_vs_one"))
    assert ENGINE.view(st, 1)["pending"]["fallback"] is True
    assert picks(st) == {("chiang_mai", "lao"), ("sukothai", "rama")}


def test_no_undo_restriction_survives_a_takeover():
    # Ruling R1.
    st = position(provinces={"korat": "r", "pattani": "b", "chiang_mai": "yy", "ubon": "y"})
    st = run(st, play("one_vs_one"), pick("korat", "lao"), pick("pattani", "malai"))
    st = run(st, take("chiang_mai", "rama"))
    st = pass_all(st)
    assert st.controller["chiang_mai"] == 0
    st = run(st, play("one_vs_one"), pick("korat", "malai"))
    assert picks(st) == {("ubon", "rama")}


# -- The last card of the game (B6, R4) --------------------------------------------------

_LAST = {
    "chiang_mai": "lao",
    "sukothai": "rama",
    "korat": "rama",
    "ubon": "malai",
    "ratchaburi": "malai",
    "nakhon_si_thammarat": "lao",
}


def _last_card_position(opponent_blue: int):
    return position(
        players=2,
        controllers=dict(_LAST),
        provinces={"bangkok": "rb", "pattani": "bb"},
        followers=["yyyyb", "b" * opponent_blue + "y"],
        hands=[["rama"], []],
        last_play=[0, 1],
    )


def test_last_card_may_be_played_only_if_it_wins():
    st = _last_card_position(opponent_blue=2)
    assert play("rama") in legal(st)
    st = run(st, play("rama"))
    assert st.pending.last_card
    assert places(st) == {("rama", "bangkok")}
    st = run(st, place("rama", "bangkok"), place("rama", "bangkok"))
    # Only takes that keep the win are offered: Malai rules (latest takeover), seat 0 ties
    # seat 1 on Malai and wins on Rama, the second faction.
    acts = legal(st)
    assert take("pattani", "malai") in acts
    assert take("bangkok", "rama") not in acts
    with pytest.raises(IllegalAction):
        run(st, take("bangkok", "rama"))
    st = run(st, take("pattani", "malai"))
    st = pass_all(pass_all(st))
    assert st.finished and ENGINE.result(st)["winners"] == [0]


def test_last_card_that_cannot_win_is_not_playable():
    st = _last_card_position(opponent_blue=4)
    assert legal(st) == [PASS]
    with pytest.raises(IllegalAction) as err:
        run(st, play("rama"))
    assert "last card" in str(err.value)
    assert ENGINE.view(st, 0)["prompt"]["key"].startswith("Your last card")


def test_not_the_last_card_may_be_played_even_when_it_loses():
    st = _last_card_position(opponent_blue=4)
    st.hands[1]["lao"] = 1
    assert play("rama") in legal(st)


def test_last_card_may_be_played_when_the_partner_wins():
    # Ruling R4: in the team game it is enough that the team wins.
    st = position(
        players=4,
        controllers=dict(_LAST),
        provinces={"bangkok": "rb", "pattani": "bb"},
        followers=["y", "bb", "bbb", ""],
        hands=[["rama"], [], [], []],
        last_play=[0, 1, 2, 3],
    )
    assert play("rama") in legal(st)
    st.followers[1] = [0, 0, 4]
    st.supply[2] -= 2
    assert legal(st) == [PASS]


# -- Further rules of "Die Aktionen" -----------------------------------------------------


def test_maharacha_with_no_king_marker_left_swaps_without_a_marker():
    # Ruling R2 (second half): all 4 King markers are on the board.
    st = position(provinces={"korat": "y"}, kings=["ubon", "bangkok", "pattani", "sukothai"])
    st = run(st, play("maharacha"), tile("korat"), tile("chiang_mai"))
    assert st.track[:3] == ["korat", "sukothai", "chiang_mai"]
    assert len(st.kings) == 4 and "korat" not in st.kings
    assert any(e["key"] == "No King marker is left." for e in st.log)
    assert legal(st) == [take("korat", "rama")]


def test_no_follower_is_ever_placed_in_a_resolved_province():
    # Sukothai is resolved and next to Lao's home: neither Khon Thai nor the Lao card may
    # put a follower there.
    ctrl = {"sukothai": "rama", "korat": "lao"}
    st = position(provinces={"ubon": "y"}, controllers=ctrl)
    st = run(st, play("khon_thai"))
    assert not {p for _, p in places(st)} & {"sukothai", "korat"}
    st = position(provinces={"ubon": "y"}, controllers=ctrl)
    st = run(st, play("lao"))
    assert {p for _, p in places(st)} == {"ubon", "bangkok"}  # korat's open neighbours


def test_card_action_must_be_carried_out_before_the_take():
    # "Die Aktion der Karte muss ausgeführt werden": no take, pass or skip while a step
    # that can be done is open; the faction card places both followers.
    st = position(provinces={"sukothai": "y"})
    st = run(st, play("lao"))
    assert types(legal(st)) == {"place"}
    st = run(st, place("lao", "sukothai"))
    assert types(legal(st)) == {"place"}
    with pytest.raises(IllegalAction):
        run(st, take("sukothai", "rama"))
    st = run(st, place("lao", "sukothai"))
    assert types(legal(st)) == {"take"}


def test_two_vs_one_must_swap_two_for_one_when_it_can():
    # The 1-for-1 fallback (B4) is only there when no 2-for-1 is possible.
    st = position(provinces={"sukothai": "rr", "korat": "y", "bangkok": "b"})
    st = run(st, play("two_vs_one"))
    assert ENGINE.view(st, 0)["pending"]["fallback"] is False
    assert picks(st) == {("sukothai", "lao")}


def test_one_vs_one_when_only_the_undo_is_possible_nothing_is_swapped():
    # "As far as possible" with the no-undo rule: the card is played, nothing moves,
    # the follower is still taken, and no new restriction is set (B12).
    st = position(provinces={"chiang_mai": "r", "pattani": "b", "korat": "y"})
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"), pick("pattani", "malai"))
    st = run(st, take("korat", "rama"), play("one_vs_one"))
    assert st.log[-1]["key"] == "Nothing can be swapped."
    assert types(legal(st)) == {"take"}
    st = run(st, take("chiang_mai", "malai"))
    assert st.swap_memory is None


def test_two_vs_one_fallback_may_not_undo_a_previous_fallback():
    # No province holds two followers, so both cards make the 1-for-1 fallback (B4, B12).
    st = position(provinces={"chiang_mai": "r", "sukothai": "y", "korat": "b", "pattani": "b"})
    st = run(st, play("two_vs_one"), pick("chiang_mai", "lao"), pick("sukothai", "rama"))
    st = run(st, take("pattani", "malai"), play("two_vs_one"))
    assert ENGINE.view(st, 1)["pending"]["fallback"] is True
    assert picks(st) == {("sukothai", "lao"), ("korat", "malai")}  # not chiang_mai's Rama
    st = run(st, pick("sukothai", "lao"))
    assert picks(st) == {("korat", "malai")}


# -- King of Saba: same cards, new names ------------------------------------------------


def test_saba_card_works_like_maharacha():
    st = position(map_id="saba", provinces={"gojjam": "y"}, kings=["sidamo"])
    st = run(st, play("saba"))
    assert {a["province"] for a in legal(st)} == set(st.track) - {"sidamo"}
    st = run(st, tile("tigray"), tile("wollega"), king("wollega"))
    assert st.current() == "wollega" and st.kings == ["sidamo", "wollega"]
    assert types(legal(st)) == {"take"}


def test_ityoppaya_works_like_khon_thai_and_each_set_has_two():
    st = position(map_id="saba", provinces={"gojjam": "y"}, controllers={"tigray": "tigray"})
    assert st.hands[0]["ityoppaya"] == 2
    st = run(st, play("ityoppaya"))
    unresolved = set(st.track) - {"tigray"}
    assert places(st) == {(f, p) for f in ("amhara", "tigray", "shewa") for p in unresolved}
    st = run(st, place("shewa", "wollo"), place("amhara", "wollo"), place("tigray", "wollo"))
    st = run(st, take("gojjam", "amhara"))
    assert counts(st, "wollo") == {"amhara": 1, "tigray": 1, "shewa": 1}
    assert st.hands[0]["ityoppaya"] == 1
    st = run(st, PASS, PASS)
    assert play("ityoppaya") in legal(st)


def test_saba_faction_card_places_next_to_its_home_on_the_saba_map():
    # Shewa (green) home: shewa; neighbours wollo, gojjam, wollega, herarghe, sidamo.
    st = position(map_id="saba", provinces={"gojjam": "y"})
    st = run(st, play("shewa"))
    assert places(st) == {
        ("shewa", p) for p in ("wollo", "gojjam", "wollega", "herarghe", "sidamo")
    }
    st = run(st, place("shewa", "herarghe"), place("shewa", "sidamo"))
    assert counts(st, "herarghe")["shewa"] == 1 and counts(st, "sidamo")["shewa"] == 1


def test_saba_two_vs_one_uses_the_saba_map_adjacency():
    # wollo borders tigray; sidamo does not.
    st = position(map_id="saba", provinces={"tigray": "rr", "wollo": "y", "sidamo": "g"})
    st = run(st, play("two_vs_one"), pick("tigray", "tigray"), pick("tigray", "tigray"))
    assert picks(st) == {("wollo", "amhara")}
