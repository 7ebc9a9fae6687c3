"""Ratings: updated exactly once when a game ends with a result, per team, never for aborts."""

import threading
import time

import pytest
from django.db import connection

from community import scoring
from community.models import PlayerStats, RatingChange, ScoredGame, SeatRecord
from enginekit import msg
from games import play, signals
from games.models import Game
from tests.conftest import need_service
from tests.factories import UserFactory, running_game

from .helpers import finish_by_play

pytestmark = pytest.mark.django_db


def stats(user, kind="count"):
    return PlayerStats.objects.get(user=user, kind=kind)


def test_the_winner_gains_and_the_loser_loses_once(started):
    game, first, second = started
    finish_by_play(game)
    won, lost = stats(first), stats(second)
    assert won.rating > 1000 > lost.rating
    assert (won.rated_games, lost.rated_games) == (1, 1)
    assert (won.played, won.won, lost.played, lost.won) == (1, 1, 1, 0)
    changes = RatingChange.objects.filter(game=game).order_by("after")
    assert [(c.user, c.before, c.after) for c in changes] == [
        (second, 1000, lost.rating),
        (first, 1000, won.rating),
    ]


def test_a_second_finish_of_the_same_game_rates_nothing(started):
    game, first, second = started
    finish_by_play(game)
    before = (stats(first).mu, stats(second).mu)
    # A repeated signal (or a second path that ends the game) finds the claim taken.
    assert scoring.score(game) is False
    signals.game_finished.send(sender=Game, game=game)
    assert (stats(first).mu, stats(second).mu) == before
    assert RatingChange.objects.filter(game=game).count() == 2
    assert SeatRecord.objects.filter(game=game).count() == 2
    assert stats(first).played == 1
    with pytest.raises(play.PlayError):
        play.resign(game.pk, second)


@pytest.mark.parametrize("how", ["resign", "timeout"])
def test_resigning_and_running_out_of_time_are_losses(count_kind, how):
    from datetime import timedelta

    import time_machine

    users = [UserFactory(), UserFactory()]
    game = running_game("count", users)
    quitter = game.seats.get(number=0).user  # seat 0 is to move first
    other = game.seats.get(number=1).user
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        if how == "resign":
            play.resign(game.pk, quitter)
        else:
            assert play.time_out(game.pk, game.deadline) == "lost"
    assert stats(quitter).rating < 1000 < stats(other).rating
    assert stats(quitter).won == 0 and stats(other).won == 1
    assert stats(quitter).timeouts == (1 if how == "timeout" else 0)


def test_an_aborted_game_changes_no_rating_but_counts_as_ended(started):
    game, first, second = started
    play.abort(game.pk, msg("Stopped by a moderator."))
    assert ScoredGame.objects.get(game=game).rated is False
    assert not RatingChange.objects.exists()
    row = stats(first)
    assert (row.rating, row.rated_games, row.played, row.ended) == (1000, 0, 0, 1)


def test_teams_of_the_four_player_king_of_siam_rise_and_fall_together(db):
    users = [UserFactory() for _ in range(4)]
    game = running_game("siam", users)
    resigner = game.seats.get(number=0).user
    play.resign(game.pk, resigner)
    by_seat = {seat.number: stats(seat.user, "siam") for seat in game.seats.all()}
    # Seats 0 and 2 are one team, 1 and 3 the other (engine.teammates).
    assert by_seat[0].mu == by_seat[2].mu < 25 < by_seat[1].mu == by_seat[3].mu
    assert [by_seat[n].won for n in range(4)] == [0, 1, 0, 1]
    # One team game is one rating step, not two duels per player.
    assert all(row.rated_games == 1 for row in by_seat.values())


def test_a_three_player_resignation_puts_the_resigner_below_both_others(count_kind):
    users = [UserFactory(), UserFactory(), UserFactory()]
    game = running_game("count", users)
    play.resign(game.pk, game.seats.get(number=1).user)
    mus = {seat.number: stats(seat.user).mu for seat in game.seats.all()}
    assert mus[0] == mus[2] > 25 > mus[1]


@pytest.mark.django_db(transaction=True)
def test_a_finish_racing_a_second_finish_attempt_rates_once(count_kind):
    """Both players resign at the same moment: one ending, one rating step."""
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    users = [UserFactory(), UserFactory()]
    game = running_game("count", users)
    barrier = threading.Barrier(2)
    outcomes = []

    def slow(sender, game, **kwargs):
        time.sleep(0.3)  # the ending transaction stays open while the other tries

    def run(user):
        barrier.wait()
        try:
            play.resign(game.pk, user)
            outcomes.append("resigned")
        except play.PlayError:
            outcomes.append("refused")
        finally:
            connection.close()

    signals.game_finished.connect(slow, weak=False)
    try:
        threads = [threading.Thread(target=run, args=(u,)) for u in users]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        signals.game_finished.disconnect(slow)
    assert sorted(outcomes) == ["refused", "resigned"]
    assert ScoredGame.objects.filter(game=game).count() == 1
    assert RatingChange.objects.filter(game=game).count() == 2
    assert sorted(PlayerStats.objects.values_list("rated_games", flat=True)) == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_two_scorings_racing_on_one_game_claim_it_once(count_kind):
    """Even two scorers that both got past the status check rate the game once."""
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    users = [UserFactory(), UserFactory()]
    game = running_game("count", users)
    # End the game without scoring it, as if the receiver had not run yet.
    signals.game_finished.disconnect(dispatch_uid=None, receiver=_receiver())
    try:
        play.resign(game.pk, users[0])
    finally:
        signals.game_finished.connect(_receiver())
    game.refresh_from_db()
    barrier = threading.Barrier(2)
    results = []

    def run():
        from django.db import transaction

        barrier.wait()
        try:
            with transaction.atomic():
                results.append(scoring.score(Game.objects.get(pk=game.pk)))
                time.sleep(0.3)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, True]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert sorted(PlayerStats.objects.values_list("rated_games", flat=True)) == [1, 1]


def _receiver():
    from community import receivers

    return receivers.game_finished


def test_a_draw_places_every_seat_alike_and_counts_no_win():
    """The protocol's draw (enginekit.Result): nobody wins, nobody is ranked."""
    from community import ratings

    draw = {"winners": [], "ranking": [], "reason": msg("A draw."), "details": {}}
    teams, ranks = ratings.teams_and_ranks([0, 1, 2], draw, lambda seat: [seat])
    assert teams == [[0], [1], [2]] and len(set(ranks)) == 1
    after = ratings.rate([[(25.0, 8.333)]] * 3, ranks)
    assert after[0] == after[1] == after[2]  # equal players who tie stay equal
