"""The matcher's rules (``automatch.matching``), for any pool of tickets."""

from hypothesis import given, settings
from hypothesis import strategies as st

from automatch.matching import Group, Want, fit, match

TABLES = ["siam-3d", "saba-3d", "tal-7d-unrated"]


@st.composite
def wants(draw):
    count = draw(st.integers(min_value=0, max_value=14))
    pool = []
    for n in range(count):
        rating = draw(st.integers(min_value=800, max_value=1600))
        low = draw(st.none() | st.integers(min_value=700, max_value=1500))
        high = draw(st.none() | st.integers(min_value=(low or 700), max_value=1700))
        smallest = draw(st.integers(min_value=2, max_value=4))
        largest = draw(st.integers(min_value=smallest, max_value=4))
        pool.append(
            Want(
                id=n,
                # Few players: some post several tickets.
                user=draw(st.integers(min_value=1, max_value=9)),
                table=draw(st.sampled_from(TABLES)),
                counts=frozenset(range(smallest, largest + 1)),
                rating=rating,
                low=low,
                high=high,
                since=draw(st.integers(min_value=0, max_value=5)),
                fill_at=draw(st.none() | st.integers(min_value=0, max_value=10)),
            )
        )
    return pool


pairs = st.lists(
    st.tuples(st.integers(1, 9), st.integers(1, 9)).filter(lambda p: p[0] != p[1]), max_size=4
)


def waiting_order(want):
    return (want.since, want.id)


@settings(max_examples=80, deadline=None)
@given(pool=wants(), now=st.none() | st.integers(0, 10), apart=pairs)
def test_the_tables_keep_every_rule(pool, now, apart):
    apart = [frozenset(p) for p in apart]
    groups = match(pool, now, apart)
    by_id = {w.id: w for w in pool}
    users = [by_id[t].user for g in groups for t in g.tickets]
    assert len(users) == len(set(users)), "nobody sits twice, at one table or two"
    for group in groups:
        table = [by_id[t] for t in group.tickets]
        assert all(group.players in w.counts for w in table)
        assert len(table) + group.computers == group.players
        if group.computers:
            [alone] = table
            assert now is not None and alone.fill_at is not None and alone.fill_at <= now
            assert group.players == min(alone.counts)
            continue
        assert len(table) == group.players
        for a in table:
            for b in table:
                if a is not b:
                    # Same game, ratings both ways, never two players kept apart.
                    assert fit(a, b, frozenset(apart))
                    assert a.low is None or b.rating >= a.low
                    assert a.high is None or b.rating <= a.high
        assert table == sorted(table, key=waiting_order)


@settings(max_examples=80, deadline=None)
@given(pool=wants(), apart=pairs)
def test_nobody_waits_behind_a_later_ticket_that_fits_the_same_game(pool, apart):
    apart = frozenset(frozenset(p) for p in apart)
    groups = match(pool, None, apart)
    by_id = {w.id: w for w in pool}
    seated_users = {by_id[t].user: g for g in groups for t in g.tickets}
    matched = {t for g in groups for t in g.tickets}
    for waiting in pool:
        if waiting.id in matched:
            continue
        for group in groups:
            if seated_users.get(waiting.user, group) is not group:
                continue  # the player has a table elsewhere
            table = [by_id[t] for t in group.tickets]
            for later in table:
                if waiting_order(later) <= waiting_order(waiting):
                    continue
                others = [w for w in table if w is not later]
                could_take_the_place = waiting.table == later.table and (
                    group.players in waiting.counts
                    and all(fit(waiting, other, apart) for other in others)
                )
                assert not could_take_the_place, (waiting, later, group)


def test_the_longest_waiting_sit_down_first_at_the_largest_table_they_accept():
    def want(n, user, counts=(2, 3), **more):
        return Want(id=n, user=user, table="siam", counts=frozenset(counts), rating=1000, **more)

    pool = [want(1, 1), want(2, 2), want(3, 3), want(4, 4), want(5, 5, counts=(2,))]
    assert match(pool) == [Group((1, 2, 3), 3), Group((4, 5), 2)]


def test_ratings_are_respected_both_ways():
    anna = Want(id=1, user=1, table="tal", counts=frozenset({2}), rating=1500, low=1400)
    ben = Want(id=2, user=2, table="tal", counts=frozenset({2}), rating=1450)
    newcomer = Want(id=3, user=3, table="tal", counts=frozenset({2}), rating=1000)
    assert match([anna, newcomer]) == []
    assert match([anna, ben, newcomer]) == [Group((1, 2), 2)]
    picky_ben = Want(id=2, user=2, table="tal", counts=frozenset({2}), rating=1450, high=1490)
    assert match([anna, picky_ben]) == []


def test_computer_players_fill_a_table_only_after_the_chosen_wait():
    alone = Want(id=1, user=1, table="siam", counts=frozenset({3, 4}), rating=1000, fill_at=5)
    assert match([alone], now=4) == []
    assert match([alone], now=5) == [Group((1,), 3, computers=2)]
