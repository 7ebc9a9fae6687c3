"""Set-up rules (rule book "Das Spiel aufbauen", ruling B1) and options."""

import pytest

from siam.engine import ENGINE
from siam.engine.maps import AIDS, MAPS, TOTAL_FOLLOWERS
from tests.siam.helpers import total_followers


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("map_id", ["siam", "saba"])
def test_setup_conserves_54_followers(players, map_id):
    for seed in range(10):
        st = ENGINE.setup(players, {"map": map_id}, seed)
        assert total_followers(st) == TOTAL_FOLLOWERS


def test_setup_two_players_remove_two_followers_of_each_colour():
    st = ENGINE.setup(2, {}, 1)
    assert st.removed == [2, 2, 2]
    assert ENGINE.setup(3, {}, 1).removed == [0, 0, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playing_aids_give_two_followers_and_lowest_aid_starts(players):
    for seed in range(20):
        st = ENGINE.setup(players, {}, seed)
        assert len(set(st.aids)) == players
        for seat, aid in enumerate(st.aids):
            assert sum(st.followers[seat]) == 2
            if aid == 4:
                pair = AIDS[st.aids[(seat + 1) % players]]
            else:
                pair = AIDS[aid]
            assert st.followers[seat][pair[0]] == 1 and st.followers[seat][pair[1]] == 1
        assert st.aids[st.turn] == min(st.aids)
        if players < 4:
            assert 4 not in st.aids


def test_aid_four_copies_left_neighbour_in_four_player_game():
    seen = False
    for seed in range(30):
        st = ENGINE.setup(4, {}, seed)
        seat = st.aids.index(4)
        assert st.followers[seat] == st.followers[(seat + 1) % 4]
        seen = True
    assert seen


def test_home_provinces_get_two_of_their_faction_and_every_province_four_siam():
    m = MAPS["siam"]
    for seed in range(20):
        st = ENGINE.setup(3, {"map": "siam"}, seed)
        for p in m.provinces:
            assert sum(st.counts[p.id]) == 4
            if p.home_of is not None:
                assert st.counts[p.id][p.home_of] >= 2


def test_saba_setup_counts_shewa_one_green_deserts_one_follower():
    m = MAPS["saba"]
    for seed in range(20):
        st = ENGINE.setup(3, {"map": "saba"}, seed)
        assert sum(st.counts["wollo"]) == 1
        assert sum(st.counts["herarghe"]) == 1
        assert sum(st.counts["shewa"]) == 4 and st.counts["shewa"][2] >= 1
        assert st.counts["tigray"][1] >= 2 and st.counts["begemder"][0] >= 2
        for pid in ("gojjam", "wollega", "sidamo"):
            assert sum(st.counts[pid]) == 4
        assert sum(sum(c) for c in st.counts.values()) == 26
    assert m.invader_name == "Italians"


def test_random_draws_come_from_the_seed():
    a = ENGINE.setup(3, {}, 42)
    b = ENGINE.setup(3, {}, 42)
    assert a == b
    different = [ENGINE.setup(3, {}, s) for s in range(10)]
    assert len({tuple(s.track) for s in different}) > 1


def test_province_tiles_shuffled_onto_the_track():
    for seed in range(5):
        st = ENGINE.setup(3, {"map": "siam"}, seed)
        assert sorted(st.track) == sorted(MAPS["siam"].province_ids())
        assert all(c is None for c in st.controller.values())


def test_each_player_gets_a_set_of_eight_action_cards():
    st = ENGINE.setup(4, {"map": "saba"}, 3)
    for s in range(4):
        assert st.cards_left(s) == 8
        assert st.hands[s]["ityoppaya"] == 2 and st.hands[s]["saba"] == 1


def test_options_default_validate_and_reject():
    schema = ENGINE.options_schema()
    assert schema[0]["name"] == "map" and schema[0]["default"] == "siam"
    assert ENGINE.validate_options(3, {}) == {"map": "siam"}
    assert ENGINE.validate_options(2, {"map": "saba"}) == {"map": "saba"}
    with pytest.raises(ValueError):
        ENGINE.validate_options(3, {"map": "atlantis"})
    with pytest.raises(ValueError):
        ENGINE.validate_options(5, {})
    with pytest.raises(ValueError):
        ENGINE.validate_options(1, {})
    with pytest.raises(ValueError):
        ENGINE.validate_options(3, {"teams": True})
    assert (ENGINE.slug, ENGINE.min_players, ENGINE.max_players) == ("siam", 2, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("map_id", "in_provinces"), [("siam", 8 * 4), ("saba", 6 * 4 + 2 * 1)])
def test_setup_counts_per_player_count_and_map(players, map_id, in_provinces):
    # 2 followers per player, 4 per province (Saba: deserts 1), 2 of each colour out with 2
    # players, the rest is the supply.
    removed = 6 if players == 2 else 0
    for seed in range(5):
        st = ENGINE.setup(players, {"map": map_id}, seed)
        assert sum(sum(c) for c in st.counts.values()) == in_provinces
        assert sum(sum(f) for f in st.followers) == 2 * players
        assert sum(st.removed) == removed
        assert sum(st.supply) == TOTAL_FOLLOWERS - removed - in_provinces - 2 * players


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("map_id", ["siam", "saba"])
def test_random_followers_drawn_without_replacement_from_what_is_left(players, map_id):
    # Ruling B1: removal first, then the players' followers and the home followers, then the
    # random draws from what is left: every colour keeps its 18 (16 with 2 players) pieces.
    for seed in range(10):
        st = ENGINE.setup(players, {"map": map_id}, seed)
        for f in range(3):
            in_game = (
                st.supply[f]
                + sum(c[f] for c in st.counts.values())
                + sum(fl[f] for fl in st.followers)
            )
            assert in_game == (16 if players == 2 else 18)
            assert st.supply[f] >= 0


def test_playing_aid_four_only_in_the_four_player_game():
    for seed in range(10):
        assert 4 not in ENGINE.setup(2, {}, seed).aids
        assert 4 not in ENGINE.setup(3, {}, seed).aids
        assert sorted(ENGINE.setup(4, {}, seed).aids) == [1, 2, 3, 4]


def test_four_player_game_partners_sit_opposite_and_keep_their_own_followers():
    assert ENGINE.teammates(4, 0) == [0, 2] and ENGINE.teammates(4, 3) == [1, 3]
    assert ENGINE.teammates(3, 1) == [1]
    st = ENGINE.setup(4, {}, 5)
    v = ENGINE.view(st, None)
    assert v["teams"] == [[0, 2], [1, 3]]
    assert [s["partner"] for s in v["seats"]] == [2, 3, 0, 1]
    # Every player collects followers for themself, never into a team pool.
    assert all(sum(f) == 2 for f in st.followers)
