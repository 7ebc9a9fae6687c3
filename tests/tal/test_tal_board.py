"""The board graph and the distance examples of the rule book."""

from tal.engine import board as B


def test_distance_examples_of_the_rule_book():
    assert B.distance("16", "15-B") == 1
    assert B.distance("16", "17") == 1
    assert B.distance("6-C", "16") == 2
    assert B.distance("6-C", "20") == 2


def test_distance_around_a_site_ring():
    assert B.distance("2-A", "2-B") == 1
    assert B.distance("2-A", "2-H") == 1  # the ring closes
    assert B.distance("2-D", "2-E") == 1
    assert B.distance("2-A", "18") == 2


def test_graph_counts():
    assert len(B.AREAS) == 7
    assert len(B.SITES) == 15
    assert len(B.NODES) == 7 + 6 * 8 + 9 * 4
    assert B.CAPACITY == {"small": 5, "large": 14, "pharaoh": 30}
    assert B.TOTAL_STONES == 165


def test_distances_are_symmetric_and_connected():
    for a in B.NODES:
        for b in B.NODES:
            assert B.DIST[a][b] == B.DIST[b][a]


def test_sites_in_play_by_player_count():
    assert len(B.sites_in_play(4)) == 15
    assert sorted(set(B.SITES) - set(B.sites_in_play(3))) == [4, 8, 12]
    assert sorted(set(B.SITES) - set(B.sites_in_play(2))) == [1, 4, 5, 8, 9, 12]
