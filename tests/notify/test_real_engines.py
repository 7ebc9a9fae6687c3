"""Real engines: one mail per turn in King of Siam, no Tal secret in anybody else's mail."""

import random

import pytest
from django.core import mail

from games import play, replay, text
from games.models import Game
from notify.models import Notification
from tests.factories import UserFactory, running_game

from .conftest import drain

pytestmark = pytest.mark.django_db


def players(n):
    return [UserFactory(username=f"p{i}", display_name=f"Player{i}") for i in range(n)]


def play_randomly(game, users, steps, rng, after=None):
    """Random legal actions; calls ``after(game, state)`` after each one."""
    by_seat = {s.number: s.user for s in game.seats.all()}
    for _ in range(steps):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = replay.current_state(game)
        seat = min(game.engine.active_seats(state))
        action = rng.choice(game.engine.legal_actions(state, seat))
        play.act(game.pk, by_seat[seat], action, None)
        if after:
            after(game)


def test_king_of_siam_one_mail_per_turn_however_many_actions(clock):
    users = players(2)
    game = running_game("siam", users)
    drain()
    mail.outbox.clear()
    turns_begun = {u.pk: 0 for u in users}
    actions_in_turn, longest = 0, 0
    rng = random.Random(3)
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        before = {s.user_id for s in game.seats.filter(to_move=True)}
        play_randomly(game, users, 1, rng)
        actions_in_turn += 1
        after = {s.user_id for s in game.seats.filter(to_move=True)}
        for user_id in after - before:
            turns_begun[user_id] += 1
        if after != before:
            longest, actions_in_turn = max(longest, actions_in_turn), 0
        drain()
    assert longest > 1  # some turns really were several actions
    for user in users:
        sent = [m for m in mail.outbox if m.to == [user.email] and "Your turn" in m.subject]
        assert len(sent) == turns_begun[user.pk] > 0


def test_no_tal_secret_reaches_another_seats_mail(clock):
    users = players(3)
    game = running_game("tal", users, title="Tal")
    names = {s.number: s.user.name for s in game.seats.select_related("user")}
    email_of = {s.user.email: s.number for s in game.seats.select_related("user")}
    checked = 0

    def check_new_mail(game):
        nonlocal checked
        drain()
        state = replay.current_state(game)
        secrets = [
            e
            for e in state.log
            if e.get("owner") is not None
            and not (e.get("secret") is not None and e["secret"] in state.revealed)
        ]
        for message in mail.outbox:
            seat = email_of[message.to[0]]
            hidden = [text.render(e, names) for e in secrets if e["owner"] != seat]
            body = message.body + message.alternatives[0][0]
            for secret in hidden:
                assert secret not in body, (seat, secret)
                checked += 1
        mail.outbox.clear()

    play_randomly(game, users, 150, random.Random(11), after=check_new_mail)
    # Rendering the raw log instead of the seat's view fails here (tried).
    assert checked > 10
    turns = Notification.objects.filter(kind="turn", sent_at__isnull=False).count()
    assert turns > 5
