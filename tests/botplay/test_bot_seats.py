"""A computer player in a seat of a real game plays its turns through games.play."""

from __future__ import annotations

import random

import pytest

from botplay.accounts import bot_user, strength_of
from botplay.tasks import play_turn
from games import play, replay
from games.models import Game
from tests.factories import UserFactory, running_game


@pytest.fixture
def human(db):
    return UserFactory(username="hanna", display_name="Hanna")


def _play_out(game, human, django_capture_on_commit_callbacks):
    rng = random.Random(0)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = replay.current_state(game)
        seat = game.seat_of(human).number
        # Whenever the human may act, the bot has finished its own turn already.
        assert game.engine.active_seats(state) == {seat}
        action = rng.choice(game.engine.legal_actions(state, seat))
        with django_capture_on_commit_callbacks(execute=True):
            play.act(game.pk, human, action, None)
    raise AssertionError("the game did not end")


def test_bot_accounts_are_marked_and_know_their_strength(db):
    bot = bot_user("greedy")
    assert bot.is_bot and strength_of(bot) == "greedy"
    assert bot_user("greedy") == bot
    with pytest.raises(ValueError):
        bot_user("cheating")


@pytest.mark.parametrize("title", ["siam", "tal"])
def test_a_game_against_a_bot_is_played_to_the_end(
    title, human, django_capture_on_commit_callbacks
):
    bot = bot_user("random")
    with django_capture_on_commit_callbacks(execute=True):
        game = running_game(title, [human, bot])
    game = _play_out(game, human, django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINISHED
    bot_seat = game.seat_of(bot).number
    assert game.moves.filter(seat=bot_seat).exists()
    # Practice: nobody is rated for a game against a computer.
    from community.models import ScoredGame

    assert not ScoredGame.objects.get(game=game).rated


def test_a_second_task_for_the_same_turn_does_nothing(human, django_capture_on_commit_callbacks):
    bot = bot_user("random")
    game = running_game("siam", [human, bot])  # callbacks not run: the bot has not moved
    bot_seat = game.seat_of(bot).number
    if game.seats.get(number=bot_seat).to_move:
        assert play_turn(game.pk, bot_seat) > 0
    else:
        state = replay.current_state(game)
        seat = game.seat_of(human).number
        play.act(game.pk, human, game.engine.legal_actions(state, seat)[0], None)
    moves = game.moves.count()
    assert play_turn(game.pk, bot_seat) == 0
    assert game.moves.count() == moves


def test_a_task_never_moves_for_a_human(human, db):
    other = UserFactory(username="otto")
    game = running_game("siam", [human, other])
    assert play_turn(game.pk, 0) == 0 and play_turn(game.pk, 1) == 0
    assert game.moves.count() == 0
