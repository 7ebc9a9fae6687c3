"""Whole tournaments played to their final table by computer players driving accounts
through the web layer (``tests/tournaments/playtest.py``): they find the tournament in
the lobby, enter it, play every game of every round over HTTP, and the standings page
changes as the rounds end. Count to Ten (``tests/fake_engine.py``) keeps the long ones
short; one real title plays a two-round Swiss."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

import bots
from community.models import RatingChange
from games import play, replay
from games.models import Game
from tournaments import running
from tournaments.models import Round, Table, Tournament

from . import playtest

# Real commits: a round's last move starts the next round after it commits, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)


def check_clean(summary, tournament):
    assert summary.server_errors == [] and summary.problems == []
    assert tournament.status == Tournament.Status.FINISHED
    games = Game.objects.filter(tournament_table__tournament=tournament)
    assert games.count() == summary.games and summary.finished == summary.games
    assert all(game.status == Game.Status.FINISHED for game in games)


def test_an_eight_player_swiss_is_played_to_its_final_table(count_kind):
    tournament, summary, pages = playtest.run("count", 8, name="Spring Swiss", rounds=3)
    check_clean(summary, tournament)
    tables = playtest.tables(tournament)
    assert [r.number for r in tournament.round_set.all()] == [1, 2, 3]
    assert len(tables) == 12 and all(t.kind == Table.Kind.GAME for t in tables)
    pairs = [tuple(sorted(t.seating)) for t in tables]
    assert len(set(pairs)) == len(pairs)  # no rematch in three rounds of eight
    seats = Counter((entrant, seat) for t in tables for seat, entrant in enumerate(t.seating))
    entrants = list(tournament.entrants.all())
    for entrant in entrants:  # three games each, seats within one
        first, second = seats[(entrant.pk, 0)], seats[(entrant.pk, 1)]
        assert first + second == 3 and abs(first - second) == 1
    final = tournament.final_table
    assert [row["place"] for row in final] == list(range(1, 9))
    assert sum(float(row["points"]) for row in final) == 12  # one point a game
    # The standings changed as the rounds ended, and the last page shows the final table.
    assert len(pages) == 3 and pages[0] != pages[1] != pages[2]
    assert "Final table" in pages[-1] and final[0]["name"] in pages[-1]
    # Each round began with a mail naming it (the game's start mail is the round's).
    subjects = [m.subject for m in mail.outbox]
    round_mail = next(m for m in mail.outbox if "Round 2 of" in m.subject)
    assert "Round 2 of the tournament “Spring Swiss” has begun." in round_mail.body
    assert f"/tournaments/{tournament.pk}/" in round_mail.body  # the standings
    for number in (1, 2, 3):
        assert sum(f"Round {number} of “Spring Swiss” has started" in s for s in subjects) == 8


def test_a_nine_player_round_robin_at_tables_of_three_is_played_to_the_end(count_kind):
    tournament, summary, pages = playtest.run(
        "count",
        9,
        format="round_robin",
        table_size=3,
        group_size=9,
        every_seating="",
        min_entrants=9,
    )
    check_clean(summary, tournament)
    tables = playtest.tables(tournament)
    assert tournament.round_set.count() == 4 and len(tables) == 12
    met = Counter(p for t in tables for p in itertools.combinations(sorted(t.seating), 2))
    assert len(met) == 36 and set(met.values()) == {1}  # every pair once
    for entrant in tournament.entrants.all():
        seats = Counter(seat for t in tables for seat, e in enumerate(t.seating) if e == entrant.pk)
        assert sum(seats.values()) == 4 and max(seats.values()) - min(seats.values()) <= 1
    assert len(tournament.final_table) == 9
    assert "Group 1" not in pages[-1] or "Sonneborn" in pages[-1]


def test_knockout_finals_crown_the_winner_of_the_last_table(count_kind):
    tournament, summary, _pages = playtest.run(
        "count",
        4,
        rounds=1,
        finals=2,
        min_entrants=4,
    )
    check_clean(summary, tournament)
    finals = Round.objects.get(tournament=tournament, stage=Round.Stage.FINALS)
    [final] = finals.tables.all()
    points = dict(zip(final.seating, final.point_values(), strict=True))
    champion = max(points, key=points.get)
    assert tournament.final_table[0]["entrant"] == champion
    assert tournament.round_set.count() == 2  # one Swiss round, then the final


def test_a_two_round_swiss_of_a_real_title_plays_to_its_final_table():
    """King of Siam, four entrants, two rounds; the players' moves go straight to
    ``games.play`` (a real title's games are long: the web layer is the others' test)."""
    users = playtest.players(4)
    tournament = running.create(
        users[0],
        name="Siam cup",
        kind="siam",
        options={"map": "siam"},
        table_size=2,
        format=Tournament.Format.SWISS,
        rounds=2,
        min_entrants=4,
        max_entrants=4,
        signup_closes=timezone.now() + timedelta(days=1),
    )
    for user in users:
        running.enter(tournament.pk, user)
    running.close_signup(tournament.pk, users[0])  # the first round starts after commit
    for _ in range(3):
        for game in Game.objects.filter(
            tournament_table__tournament=tournament, status=Game.Status.ACTIVE
        ):
            play_to_the_end(game)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert len(tournament.final_table) == 4 and tournament.round_set.count() == 2
    games = Game.objects.filter(tournament_table__tournament=tournament)
    assert games.count() == 4 and all(g.status == Game.Status.FINISHED for g in games)
    # Tournament games are rated as usual: two players' ratings change in each.
    assert RatingChange.objects.filter(game__in=games).count() == 8


def play_to_the_end(game):
    for step in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = replay.current_state(game)
        number = min(game.engine.active_seats(state))
        seat = game.seats.select_related("user").get(number=number)
        action = bots.choose(game.engine, state, number, "random", salt=f"{game.pk}:{step}")
        play.act(game.pk, seat.user, action, None)
