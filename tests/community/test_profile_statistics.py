"""A player's statistics per title on their profile (issue 34): games, wins, average
score, favourite opponents and time per move, read in a few queries that do not grow
with the number of games the player has played."""

import random
import re

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from community.models import Opponent, PlayerStats, SeatRecord
from games import play, replay
from games.models import Game
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(db):
    return UserFactory(username="ada", display_name="Ada")


@pytest.fixture
def bo(db):
    return UserFactory(username="bo", display_name="Bo")


def end_with(game: Game, winners: list[int], details: dict) -> Game:
    """End ``game`` with a result of the engine's shape (as its last move would)."""
    ranking = winners + [n for n in range(game.players) if n not in winners]
    result = {
        "winners": winners,
        "ranking": ranking,
        "reason": {"key": "Over."},
        "details": details,
    }
    with transaction.atomic():
        locked = play.locked(game.pk)
        play._finish(locked, result)
    game.refresh_from_db()
    return game


def seat_of(game, user) -> int:
    return game.seats.get(user=user).number


def tal_game(ada, bo, ada_points, bo_points):
    game = running_game("tal", [ada, bo])
    points = [0, 0]
    points[seat_of(game, ada)], points[seat_of(game, bo)] = ada_points, bo_points
    winner = 0 if points[0] >= points[1] else 1
    return end_with(game, [winner], {"points": points, "pyramids": [], "rounds": 4})


def summary(html: str) -> str:
    return html.split('id="record-h"', 1)[1].split('id="running-h"', 1)[0]


def test_the_profile_shows_games_wins_average_score_and_favourite_opponents(ada, bo):
    carla = UserFactory(username="carla", display_name="Carla")
    tal_game(ada, bo, 30, 20)
    tal_game(ada, bo, 10, 25)
    tal_game(ada, carla, 41, 12)
    page = summary(Client().get("/u/ada/").content.decode())
    row = page.split("Tal der Könige</a>", 1)[1].split("</tr>", 1)[0]
    cells = [c.split(">", 1)[1] for c in row.split("</td>")[1:6]]
    assert cells[0] == "3"  # games
    assert cells[2] == "2 of 3"  # won
    assert cells[3] == "27.0 points"  # (30 + 10 + 41) / 3
    opponents = page.split('id="opponents-h"', 1)[1]
    assert opponents.index(">Bo</a> (2 games, Ada won 1)") < opponents.index(
        ">Carla</a> (1 game, Ada won 1)"
    )
    assert Opponent.objects.get(user=bo, opponent=ada).won == 1


def test_a_real_game_of_king_of_siam_scores_the_followers_each_player_won(ada, bo, settings):
    game = running_game("siam", [ada, bo])
    rng = random.Random(3)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = replay.current_state(game)
        [seat] = game.engine.active_seats(state)
        user = game.seats.get(number=seat).user
        play.act(game.pk, user, rng.choice(game.engine.legal_actions(state, seat)), None)
    assert game.status == Game.Status.FINISHED
    followers = game.result["details"]["followers"]
    for user in (ada, bo):
        record = SeatRecord.objects.get(game=game, user=user)
        assert record.points == sum(followers[record.seat].values())
        stats = PlayerStats.objects.get(user=user, kind="siam")
        assert (stats.points_total, stats.points_games) == (record.points, 1)
    assert "followers won" in summary(Client().get("/u/ada/").content.decode())


def test_a_game_ended_by_the_site_has_no_score_but_counts_as_a_meeting(ada, bo):
    game = running_game("tal", [ada, bo])
    play.resign(game.pk, ada)
    assert SeatRecord.objects.get(game=game, user=ada).points is None
    assert PlayerStats.objects.get(user=ada, kind="tal").points_games == 0
    assert Opponent.objects.get(user=ada, opponent=bo).games == 1
    page = summary(Client().get("/u/ada/").content.decode())
    assert re.search(r"Tal der Könige</a></td>\s*<td>1</td>", page)


def test_partners_of_a_team_game_are_not_each_others_opponents(db):
    players = [UserFactory(display_name=name) for name in ("P0", "P1", "P2", "P3")]
    game = running_game("siam", players)
    by_seat = {s.number: s.user for s in game.seats.all()}
    end_with(game, [0, 2], {"teams": [[0, 2], [1, 3]]})
    met = set(Opponent.objects.filter(user=by_seat[0]).values_list("opponent_id", flat=True))
    assert met == {by_seat[1].pk, by_seat[3].pk}


def test_computer_players_are_nobodys_favourite_opponent(ada):
    from botplay.accounts import bot_user

    game = running_game("tal", [ada, bot_user("random")])
    end_with(game, [0], {"points": [5, 3], "pyramids": [], "rounds": 4})
    assert not Opponent.objects.exists()
    assert "no other player yet" in summary(Client().get("/u/ada/").content.decode())


def test_the_profile_costs_the_same_after_one_game_and_after_many(ada, bo):
    tal_game(ada, bo, 10, 5)
    client = Client()
    client.get("/u/ada/")
    with CaptureQueriesContext(connection) as one:
        client.get("/u/ada/")
    for n in range(8):
        other = UserFactory()
        tal_game(ada, other if n % 2 else bo, 10 + n, 5)
        siam = running_game("siam", [ada, other])
        end_with(siam, [0], {"followers": [{"a": 1}, {"a": 2}]})
    with CaptureQueriesContext(connection) as many:
        client.get("/u/ada/")
    statistics = [q["sql"] for q in many if "community_" in q["sql"]]
    # the records, the opponents, the rating history (and the record marks of the list)
    assert len(statistics) == len([q for q in one if "community_" in q["sql"]]) == 4, statistics
    # The opponents are picked by the database: at most three per title come back.
    assert "ROW_NUMBER() OVER" in next(q for q in statistics if "community_opponent" in q)
    assert len(many) == len(one)  # the page's lists are cut to a page as well
