"""The start of a game and its first turn are decided in one place: the first player's
turn row is written covered by their start row, in the same transaction, and goes with
it. Whatever order workers take the rows in, the first player gets one mail; the turn
goes on its own only when the start mail is skipped."""

from __future__ import annotations

import pytest
from django.core import mail

from games import play
from notify import delivery
from notify.models import Notification

from .conftest import add_hook

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


@pytest.fixture
def started(clock, count_kind, anna, bert):
    """A game of two that has just started; nothing delivered yet (no worker ran)."""
    game = play.create_game(
        anna, count_kind, title="Race", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)  # the test's transaction: no delivery runs on commit
    game.refresh_from_db()
    first = game.seats.select_related("user").get(to_move=True).user
    return game, first


def rows(game, user, channel="email"):
    found = Notification.objects.filter(game=game, user=user, channel=channel)
    return found.get(kind=Kind.GAME_STARTED), found.get(kind=Kind.TURN)


def test_the_first_players_turn_row_is_written_covered_by_their_start_row(started):
    game, first = started
    start, turn = rows(game, first)
    assert turn.covered_by_id == start.pk


@pytest.mark.parametrize("turn_first", [True, False])
def test_in_either_order_the_first_player_gets_one_mail_that_says_it_is_their_turn(
    started, turn_first
):
    game, first = started
    start, turn = rows(game, first)
    order = [turn.pk, start.pk] if turn_first else [start.pk, turn.pk]
    outcome = [delivery.deliver(pk) for pk in order]
    assert outcome == (["not claimed", "sent"] if turn_first else ["sent", "not claimed"])
    [message] = [m for m in mail.outbox if m.to == [first.email]]
    assert "has started" in message.subject
    assert "You move first." in message.body
    turn.refresh_from_db()
    assert turn.sent_at is not None  # it went, in the start mail
    assert delivery.drain() == {"sent": 1}  # the other player's start mail; nothing more
    assert len([m for m in mail.outbox if m.to == [first.email]]) == 1


def test_a_start_mail_that_is_skipped_lets_the_turn_mail_go_on_its_own(started):
    game, first = started
    first.notify_game_end = False  # switched off after the start was written
    first.save()
    start, turn = rows(game, first)
    assert delivery.deliver(start.pk) == "skipped"
    turn.refresh_from_db()
    assert turn.covered_by_id is None
    assert turn.sent_at is not None  # queued at once (the task runs in this process here)
    [message] = [m for m in mail.outbox if m.to == [first.email]]
    assert "turn" in message.subject.lower()


def test_a_game_channel_gets_one_post_for_the_start_and_its_first_turn(
    clock, count_kind, anna, bert, hooks, local_targets
):
    receiver = hooks()
    game = play.create_game(
        anna, count_kind, title="Race", players=2, options={}, time_limit_days=3, private=False
    )
    hook = add_hook(anna, receiver.url, service="json", game=game, events=["turn", "game"])
    play.join(game.pk, bert)
    start = Notification.objects.get(webhook=hook, kind=Kind.GAME_STARTED)
    turn = Notification.objects.get(webhook=hook, kind=Kind.TURN)
    assert turn.covered_by_id == start.pk
    assert delivery.drain(pings=True) == {"sent": 1}
    [post] = receiver.bodies()
    assert post["event"] == "game_started" and post["to_move"]


def test_a_start_that_goes_out_after_the_turn_went_on_its_own_does_not_say_it_again(started):
    # The first player moved at once (a computer does), so the second player's turn
    # began before their start message went out, and another worker sent that turn's
    # row first: the start then only says the game has started.
    game, first = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    second = game.seats.select_related("user").exclude(user=first).get().user
    start, turn = rows(game, second)
    assert turn.covered_by_id is None
    assert delivery.deliver(turn.pk) == "sent"
    assert delivery.deliver(start.pk) == "sent"
    messages = [m for m in mail.outbox if m.to == [second.email]]
    assert len(messages) == 2
    [started_mail] = [m for m in messages if "has started" in m.subject]
    assert "your turn" not in started_mail.subject
    assert "You move first." not in started_mail.body
