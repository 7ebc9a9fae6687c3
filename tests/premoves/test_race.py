"""A queued action and a late click of the same player race the hand-over from two app
servers (threads with connections of their own, on PostgreSQL): one move counts."""

import threading
import time

import pytest
from django.db import connection
from django.test import Client

from games import planning, replay, signals
from games.models import Game, Move
from games.pages import view_token
from tests.conftest import need_service
from tests.factories import running_game

PASS = {"type": "pass"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("click_first", [False, True])
def test_a_premove_and_a_late_click_never_both_count(users, click_first):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    game = running_game("siam", users[:2], {"map": "siam"}, title="Race")
    anna = game.seats.get(to_move=True).user
    ben = game.seats.exclude(user=anna).get().user
    ben_seat = game.seats.get(user=ben).number
    planning.queue(game.pk, ben, PASS, None)
    # The click Ben's page would send if it showed his turn right after Anna's pass,
    # before his queue is played: the token of that position.
    engine = game.engine
    after_anna = engine.apply(replay.current_state(game), game.seats.get(user=anna).number, PASS)
    late_token = view_token(engine.view(after_anna, ben_seat))

    def linger(sender, **kwargs):
        time.sleep(0.3)  # the hand-over holds the game's lock a while

    signals.turn_started.connect(linger, weak=False)
    barrier = threading.Barrier(2)
    answers = {}

    def send(name, user, body, delay):
        client = Client()
        client.force_login(user)
        barrier.wait()
        time.sleep(delay)
        try:
            answers[name] = client.post(
                f"/g/{game.pk}/act", body, content_type="application/json"
            ).status_code
        finally:
            connection.close()

    hand_over = {"action": PASS}
    late_click = {"action": PASS, "version": late_token}
    first, second = (0.15, 0) if click_first else (0, 0.1)
    threads = [
        threading.Thread(target=send, args=("anna", anna, hand_over, first)),
        threading.Thread(target=send, args=("ben", ben, late_click, second)),
    ]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        signals.turn_started.disconnect(linger)
    assert answers["anna"] == 200
    assert answers["ben"] in (400, 409)  # not his turn yet, or the position moved on
    bens = Move.objects.filter(game=game, seat=ben_seat, undone=False)
    assert list(bens.values_list("action", flat=True)) == [PASS]  # his queue, once
    game = Game.objects.get(pk=game.pk)
    assert game.move_count + game.undo_count == Move.objects.filter(game=game).count()
