"""Player records: games played and won, share on time, median time to move; shown beside names."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from community.models import PlayerStats
from games import play
from games.models import Game
from tests.factories import UserFactory, running_game

from .helpers import finish_by_play

pytestmark = pytest.mark.django_db

START = datetime(2027, 5, 3, 9, 0, tzinfo=UTC)


def test_median_time_to_move_counts_each_turn_from_the_previous_players_move(count_kind):
    users = [UserFactory(), UserFactory()]
    with time_machine.travel(START, tick=False) as clock:
        game = running_game("count", users)
        first = game.seats.get(number=0).user
        second = game.seats.get(number=1).user
        # Seat 0 answers after 1 h, 3 h, 5 h; seat 1 after 2 h, 2 h, 8 h. The second
        # action of a turn ("end", a minute later) is part of the same turn.
        for wait_first, wait_second in [(1, 2), (3, 2), (5, 8)]:
            clock.shift(timedelta(hours=wait_first))
            play.act(game.pk, first, {"type": "add", "n": 2}, None)
            clock.shift(timedelta(minutes=1))
            play.act(game.pk, first, {"type": "end"}, None)
            clock.shift(timedelta(hours=wait_second))
            play.act(game.pk, second, {"type": "add", "n": 1}, None)
            clock.shift(timedelta(minutes=1))
            play.act(game.pk, second, {"type": "end"}, None)
        clock.shift(timedelta(hours=7))
        play.act(game.pk, first, {"type": "add", "n": 2}, None)  # 3 rounds of 2+1, then 2: 11
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    a = PlayerStats.objects.get(user=first)
    b = PlayerStats.objects.get(user=second)
    # first: 1 h, 3 h, 5 h, 7 h -> median 4 h; the minute to "end" a turn is not a turn
    assert a.median_move_seconds == 4 * 3600
    # second: 2 h, 2 h, 8 h, 1 h -> median 2 h
    assert b.median_move_seconds == 2 * 3600


def test_the_on_time_share_counts_timeouts_among_every_ended_game(count_kind):
    alice, bob = UserFactory(), UserFactory()
    for _ in range(3):
        game = running_game("count", [alice, bob])
        finish_by_play(game)
    game = running_game("count", [alice, bob])
    late = game.seats.get(to_move=True).user
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "lost"
    row = PlayerStats.objects.get(user=late)
    assert (row.ended, row.timeouts, row.on_time_percent) == (4, 1, 75)
    other = alice if late == bob else bob
    assert PlayerStats.objects.get(user=other).on_time_percent == 100


def test_profile_shows_rating_record_and_an_svg_history(client, started):
    game, first, second = started
    finish_by_play(game)
    rematch = running_game("count", [first, second])
    finish_by_play(rematch)
    body = client.get(f"/u/{first.username}/").content.decode()
    row = PlayerStats.objects.get(user=first)
    assert "Ratings and record" in body
    assert f"<td>{row.rating}</td>" in body
    assert f"{row.won} of 2" in body and "100%" in body
    assert '<svg class="rating-chart"' in body and "<polyline points=" in body
    assert "<script" not in body.split('<svg class="rating-chart"')[1].split("</svg>")[0]


def test_names_in_the_lobby_carry_rating_and_record(client, started):
    game, first, second = started
    finish_by_play(game)
    open_game = play.create_game(
        first,
        game.kind_info,
        title="Next one",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    row = PlayerStats.objects.get(user=first)
    body = client.get("/").content.decode()
    assert "Next one" in body
    assert f"rating {row.rating}, won 1 of 1, 100% on time" in body
    client.force_login(first)
    mine = client.get("/my/").content.decode()
    assert f"rating {row.rating}, won 1 of 1" in mine
    assert open_game.title in mine


def test_leaderboard_orders_players_by_rating(client, started):
    game, first, second = started
    finish_by_play(game)
    body = client.get("/ratings/count/").content.decode()
    assert body.index(first.name) < body.index(second.name)
    assert "<td>100%</td>" in body
    assert client.get("/ratings/no-such-title/").status_code == 404
    # German writes a share with a (non-breaking) space before the sign.
    german = client.get("/ratings/count/", headers={"Accept-Language": "de"}).content.decode()
    assert "<td>100\u00a0%</td>" in german and "100%" not in german


def test_a_badge_shows_only_what_a_record_holds(client, count_kind):
    """Computer players carry no badge; a player with only unrated games has no
    "won 0 of 0", only the share of games finished on time."""
    from botplay import accounts as bot_accounts

    practice = UserFactory(display_name="Pia")
    game = play.create_game(
        practice, count_kind, title="Practice", players=2, options={}, time_limit_days=3,
        private=False, computer_players=["greedy"],
    )  # fmt: skip
    play.resign(game.pk, practice)
    bot = bot_accounts.bot_user("greedy")
    assert PlayerStats.objects.filter(user=bot).exists()  # the bot has a record row
    play.create_game(
        practice, count_kind, title="Next one", players=3, options={}, time_limit_days=3,
        private=False, computer_players=["greedy"],
    )  # fmt: skip
    body = client.get("/").content.decode()
    row = body.split("Next one", 1)[1].split("</tr>", 1)[0]
    assert 'Pia <small class="player-record">100% on time</small>' in row
    assert row.count("player-record") == 1 and "won 0 of 0" not in body
