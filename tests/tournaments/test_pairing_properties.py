"""The pairings' promises, checked on random tournaments (hypothesis): Swiss repeats
no pairing and gives no second bye while either can be avoided, and keeps everyone's
seats within one; a round robin seats every pair of a group together equally often,
each player's seats equal (every seating) or within one; the finals and the ladder."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import knockout, ladder, roundrobin, swiss

# -- Swiss, two-player tables ----------------------------------------------------------


def _perfect_matchings(ids: list[int]):
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        for tail in _perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def _repeat_free_pairing_exists(players: list[swiss.Player]) -> bool:
    """Brute force: a round without a repeated pairing, the bye (if any) to someone
    without one where anyone has none."""
    ids = [p.id for p in players]
    by_id = {p.id: p for p in players}
    bye_choices = [None]
    if len(ids) % 2:
        fresh = [i for i in ids if not by_id[i].had_bye]
        bye_choices = fresh or ids
    for bye in bye_choices:
        rest = [i for i in ids if i != bye]
        for matching in _perfect_matchings(rest):
            if all(b not in by_id[a].met for a, b in matching):
                return True
    return False


class SwissHistory:
    """Everything the pairing is fed, kept the way the site keeps it."""

    def __init__(self, n: int) -> None:
        self.ids = list(range(1, n + 1))
        self.score = dict.fromkeys(self.ids, Fraction(0))
        self.met = {i: set() for i in self.ids}
        self.byes = Counter()
        self.seats = {i: [0, 0] for i in self.ids}
        self.last = {}

    def players(self) -> list[swiss.Player]:
        order = sorted(self.ids, key=lambda i: (-self.score[i], i))
        return [
            swiss.Player(
                id=i,
                score=self.score[i],
                rank=rank,
                met=frozenset(self.met[i]),
                had_bye=self.byes[i] > 0,
                seats=tuple(self.seats[i]),
                last_seat=self.last.get(i),
            )
            for rank, i in enumerate(order)
        ]

    def play(self, pairing: swiss.Round, rng: random.Random) -> None:
        for a, b in pairing.tables:
            self.met[a].add(b)
            self.met[b].add(a)
            self.seats[a][0] += 1
            self.seats[b][1] += 1
            self.last[a], self.last[b] = 0, 1
            outcome = rng.choice(["a", "b", "draw"])
            if outcome == "draw":
                self.score[a] += Fraction(1, 2)
                self.score[b] += Fraction(1, 2)
            else:
                self.score[a if outcome == "a" else b] += 1
        for bye in pairing.byes:
            self.byes[bye] += 1
            self.score[bye] += 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_swiss_repeats_no_pairing_and_no_bye_while_avoidable(n, rounds, seed):
    rng = random.Random(seed)
    history = SwissHistory(n)
    for _ in range(rounds):
        players = history.players()
        pairing = swiss.pair_round(players)
        seated = [p for table in pairing.tables for p in table] + pairing.byes
        assert sorted(seated) == history.ids  # everyone once: at a table or with a bye
        assert len(pairing.byes) == n % 2
        for bye in pairing.byes:
            if history.byes[bye]:  # a second bye only once everyone has had one
                assert all(history.byes[i] for i in history.ids)
        repeats = [(a, b) for a, b in pairing.tables if b in history.met[a]]
        if repeats:
            assert not _repeat_free_pairing_exists(players), (repeats, pairing)
        history.play(pairing, rng)


def _clash(a: swiss.Player, b: swiss.Player) -> bool:
    return a.balance * b.balance > 0  # both need the same seat


def _clash_free_without_more_repeats(players: list[swiss.Player], repeats: int) -> bool:
    """Brute force: a round with no more repeated pairings than ``repeats``, the bye
    as the rules give it, in which no two players who need the same seat meet."""
    by_id = {p.id: p for p in players}
    ids = list(by_id)
    bye_choices = [None]
    if len(ids) % 2:
        fresh = [i for i in ids if not by_id[i].had_bye]
        bye_choices = fresh or ids
    for bye in bye_choices:
        for matching in _perfect_matchings([i for i in ids if i != bye]):
            again = sum(1 for a, b in matching if b in by_id[a].met)
            clashes = any(_clash(by_id[a], by_id[b]) for a, b in matching)
            if again <= repeats and not clashes:
                return True
    return False


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_swiss_keeps_everyones_seats_within_one_unless_only_a_rematch_would(n, rounds, seed):
    """Seats first and second alike, within one, in every round where some pairing
    without more rematches allows it: a rematch weighs more than a seat."""
    rng = random.Random(seed)
    history = SwissHistory(n)
    for _ in range(rounds):
        players = history.players()
        pairing = swiss.pair_round(players)
        repeats = sum(1 for a, b in pairing.tables if b in history.met[a])
        history.play(pairing, rng)
        if any(abs(first - second) > 1 for first, second in history.seats.values()):
            assert not _clash_free_without_more_repeats(players, repeats)
            return


def test_the_first_swiss_round_folds_the_field_and_seats_the_lower_half_second():
    players = [swiss.Player(i, rank=i - 1) for i in range(1, 9)]
    pairing = swiss.pair_round(players)
    assert sorted(tuple(sorted(t)) for t in pairing.tables) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_the_bye_goes_to_the_lowest_placed_player_without_one():
    players = [swiss.Player(i, rank=i - 1, had_bye=(i == 5)) for i in range(1, 6)]
    assert swiss.pair_round(players).byes == [4]


# -- Swiss, tables of three and four ---------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 14),
    size=st.sampled_from([3, 4]),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10**6),
)
def test_multi_table_swiss_seats_everyone_once_spreads_the_byes_and_evens_the_seats(
    n, size, rounds, seed
):
    if n < size:
        return
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    score = dict.fromkeys(ids, Fraction(0))
    met = {i: set() for i in ids}
    byes = Counter()
    seats = {i: [0] * size for i in ids}
    for _ in range(rounds):
        order = sorted(ids, key=lambda i: (-score[i], i))
        players = [
            swiss.Player(i, score[i], r, frozenset(met[i]), byes[i] > 0, tuple(seats[i]))
            for r, i in enumerate(order)
        ]
        pairing = swiss.group_round(players, size)
        assert all(len(t) == size for t in pairing.tables)
        assert sorted([p for t in pairing.tables for p in t] + pairing.byes) == ids
        assert len(pairing.byes) == n % size
        for bye in pairing.byes:
            if byes[bye]:
                assert sum(1 for i in ids if not byes[i]) < len(pairing.byes)
            byes[bye] += 1
            score[bye] += 1
        for table in pairing.tables:
            # Seated so that nobody's seats spread further than some seating must.
            def spread(order):
                return max(
                    max(c) - min(c)
                    for c in (
                        [seats[p][s] + (s == seat) for s in range(size)]
                        for seat, p in enumerate(order)
                    )
                )

            assert spread(table) == min(spread(o) for o in itertools.permutations(table))
            for seat, p in enumerate(table):
                seats[p][seat] += 1
                met[p].update(q for q in table if q != p)
            score[rng.choice(table)] += 1


# -- round robin -----------------------------------------------------------------------

SIZES = [(t, g) for t in (2, 3, 4) for g in roundrobin.allowed_sizes(t) if g <= 13]


@pytest.mark.parametrize(("t", "g"), SIZES)
@pytest.mark.parametrize("every_seating", [True, False])
def test_round_robin_meets_every_pair_equally_and_balances_the_seats(t, g, every_seating):
    members = [100 + i for i in range(g)]
    rounds = roundrobin.schedule([members], t, every_seating)
    pairs = Counter()
    seats = {m: Counter() for m in members}
    for tables in rounds:
        playing = [p for block in tables for p in block]
        assert len(playing) == len(set(playing))  # nobody at two tables in a round
        for block in tables:
            assert len(block) == t
            for a, b in itertools.combinations(sorted(block), 2):
                pairs[(a, b)] += 1
            for seat, p in enumerate(block):
                seats[p][seat] += 1
    every_pair = list(itertools.combinations(sorted(members), 2))
    assert {pairs[pair] for pair in every_pair} == {pairs[every_pair[0]]} != {0}
    games = {sum(c.values()) for c in seats.values()}
    assert len(games) == 1  # everyone plays as many games
    for counts in seats.values():
        spread = [counts[s] for s in range(t)]
        if every_seating:
            assert len(set(spread)) == 1
        else:
            assert max(spread) - min(spread) <= 1


def test_nine_players_at_tables_of_three_meet_once_in_four_rounds():
    rounds = roundrobin.schedule([list(range(9))], 3, every_seating=False)
    assert len(rounds) == 4 and all(len(tables) == 3 for tables in rounds)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 60), t=st.sampled_from([2, 3, 4]), target=st.integers(2, 13))
def test_groups_take_every_entrant_they_can_in_allowed_sizes(n, t, target):
    playable = roundrobin.largest_playable(n, t)
    if n < t:
        assert playable == 0
        return
    assert playable >= n - 1  # at most one waits out (4-player tables and 6 entrants)
    sizes = roundrobin.group_sizes(playable, t, target)
    assert sum(sizes) == playable
    assert all(size in roundrobin.allowed_sizes(t) for size in sizes)
    groups = roundrobin.deal(list(range(playable)), sizes)
    assert sorted(p for group in groups for p in group) == list(range(playable))
    assert [len(g) for g in groups] == sizes


def test_the_groups_are_dealt_like_a_snake():
    assert roundrobin.deal(list(range(1, 9)), [4, 4]) == [[1, 4, 5, 8], [2, 3, 6, 7]]


# -- knockout finals and the ladder ----------------------------------------------------


@pytest.mark.parametrize(("t", "n"), [(2, 2), (2, 4), (2, 8), (2, 16), (3, 9), (4, 16)])
def test_the_bracket_places_every_finalist_once_and_keeps_the_top_seeds_apart(t, n):
    tables = knockout.first_round(list(range(n)), t)
    assert sorted(p for table in tables for p in table) == list(range(n))
    assert all(table[0] == min(table) for table in tables)  # the better seed sits first
    if n > t:
        half = len(tables) // 2
        top = [i for i, table in enumerate(tables) if 0 in table or 1 in table]
        assert (top[0] < half) != (top[1] < half)  # seeds 1 and 2 meet only in the final


def test_the_table_winner_is_the_points_then_the_game_score_then_the_seed():
    seed = {10: 1, 20: 2}
    assert knockout.winner((10, 20), (0, 1), (3.0, 5.0), seed) == 20
    half = Fraction(1, 2)
    assert knockout.winner((10, 20), (half, half), (3.0, 5.0), seed) == 20
    assert knockout.winner((10, 20), (half, half), (5.0, 5.0), seed) == 10


@settings(max_examples=80, deadline=None)
@given(
    ratings=st.lists(st.integers(600, 1800), min_size=0, max_size=20),
    size=st.sampled_from([2, 3]),
)
def test_the_ladder_seats_each_seeker_once_and_never_across_the_gap(ratings, size):
    seekers = [ladder.Seeker(i, r) for i, r in enumerate(ratings)]
    tables = ladder.pair(seekers, size)
    seated = [p for table in tables for p in table]
    assert len(seated) == len(set(seated))
    for table in tables:
        assert len(table) == size
        spread = [ratings[p] for p in table]
        assert max(spread) - min(spread) <= 2 * ladder.MAX_GAP
        assert abs(ratings[table[1]] - ratings[table[0]]) <= ladder.MAX_GAP


def test_the_ladder_pairs_the_nearest_ratings_and_no_second_game_with_a_running_opponent():
    seekers = [
        ladder.Seeker(1, 1000),
        ladder.Seeker(2, 1500),
        ladder.Seeker(3, 1010),
        ladder.Seeker(4, 1490),
    ]
    assert sorted(tuple(sorted(t)) for t in ladder.pair(seekers)) == [(1, 3), (2, 4)]
    busy = [
        ladder.Seeker(1, 1000, playing=frozenset({3})),
        ladder.Seeker(3, 1010, playing=frozenset({1})),
        ladder.Seeker(5, 1100),
    ]
    assert ladder.pair(busy) == [(1, 5)]
    # The opponent of the latest game is avoided while another is near enough.
    again = [
        ladder.Seeker(1, 1000, last=frozenset({3})),
        ladder.Seeker(3, 1010, last=frozenset({1})),
        ladder.Seeker(5, 1100),
        ladder.Seeker(6, 1600),
    ]
    assert (1, 5) in ladder.pair(again)
