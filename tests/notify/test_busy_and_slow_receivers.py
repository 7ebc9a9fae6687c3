"""A receiver that is busy or slow: a 429 or 503 with Retry-After (seconds or an HTTP
date) times the next attempt; a receiver slower than PING_TIMEOUT gets one post while
the row is held, and the retry, after a backoff, carries the same delivery id. Real
receivers on 127.0.0.1."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.utils import timezone

from config.celery import app
from notify import delivery, outbox
from notify.models import Notification

from .conftest import add_hook, turn

pytestmark = pytest.mark.django_db


def ping_row():
    return Notification.objects.filter(channel="webhook", kind="turn").latest("pk")


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize(
    "retry_after, wait",
    [
        ("300", datetime.timedelta(seconds=300)),
        ("Wed, 15 May 2030 12:45:00 GMT", datetime.timedelta(minutes=45)),
    ],
)
def test_a_busy_receivers_retry_after_times_the_next_attempt(
    game, anna, bert, hooks, local_targets, clock, status, retry_after, wait
):
    receiver = hooks(status=status, headers={"Retry-After": retry_after})
    add_hook(bert, receiver.url, events=["turn"])
    turn(game, anna)
    row = ping_row()
    now = timezone.now()
    assert delivery.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.next_attempt_at == now + wait
    clock.shift(wait - datetime.timedelta(seconds=1))
    assert delivery.deliver(row.pk) == "not claimed"
    receiver.status = 200
    clock.shift(datetime.timedelta(seconds=1))
    assert delivery.deliver(row.pk) == "sent"
    first, again = receiver.received
    assert first.headers["x-pbw-delivery"] == again.headers["x-pbw-delivery"]
    assert again.headers["x-pbw-delivery"] == str(row.delivery_id)


def test_without_retry_after_the_backoff_times_it(game, anna, bert, hooks, local_targets):
    receiver = hooks(status=429)
    add_hook(bert, receiver.url, events=["turn"])
    turn(game, anna)
    row = ping_row()
    now = timezone.now()
    assert delivery.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.next_attempt_at == now + outbox.backoff(1)


def test_a_retry_after_of_nothing_does_not_make_a_loop(game, anna, bert, hooks, local_targets):
    receiver = hooks(status=429, headers={"Retry-After": "0"})
    add_hook(bert, receiver.url, events=["turn"])
    turn(game, anna)
    row = ping_row()
    now = timezone.now()
    assert delivery.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.next_attempt_at == now + outbox.MIN_RETRY_AFTER
    assert len(receiver.received) == 1


@pytest.mark.django_db(transaction=True)
def test_a_receiver_slower_than_the_timeout_gets_one_post_while_the_row_is_held(
    game, anna, bert, hooks, local_targets, settings, clock
):
    settings.PING_TIMEOUT = 0.5
    receiver = hooks()
    add_hook(bert, receiver.url, events=["turn"])
    turn(game, anna)
    row = ping_row()
    Notification.objects.filter(pk=row.pk).update(sent_at=None, claimed_at=None)
    receiver.received.clear()
    answer = threading.Event()
    receiver.hold = answer  # the receiver takes the post and answers only later
    outcome = []
    first = threading.Thread(target=lambda: outcome.append(delivery.deliver(row.pk)))
    first.start()
    try:
        assert receiver.holding.wait(10)
        # Another worker, and the drain, while the post is on its way: the row is held.
        assert delivery.deliver(row.pk) == "not claimed"
        assert delivery.drain(pings=True) == {}
        first.join(10)
    finally:
        answer.set()
    assert outcome == ["failed"]  # timed out: it may have arrived, or not
    row.refresh_from_db()
    assert row.next_attempt_at >= timezone.now() + datetime.timedelta(minutes=2)
    assert delivery.drain(pings=True) == {}
    assert len(receiver.received) == 1
    clock.shift(datetime.timedelta(minutes=2, seconds=1))
    assert delivery.drain(pings=True) == {"sent": 1}
    first_post, again = receiver.received
    assert first_post.headers["x-pbw-delivery"] == again.headers["x-pbw-delivery"]


def test_pushes_and_posts_are_routed_to_their_own_queue_and_mail_is_not(settings):
    route = app.amqp.router.route
    assert route({}, "notify.tasks.deliver_ping")["queue"].name == settings.CELERY_PINGS_QUEUE
    assert route({}, "notify.tasks.drain_pings")["queue"].name == settings.CELERY_PINGS_QUEUE
    assert route({}, "notify.tasks.deliver")["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
    assert route({}, "notify.tasks.drain")["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
    assert settings.CELERY_PINGS_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"notify.tasks.drain", "notify.tasks.drain_pings"} <= beat


def test_a_busy_push_service_is_tried_again_when_it_says(game, anna, bert, push_service, clock):
    from django.test import Client

    from .conftest import subscribe

    client = Client()
    client.force_login(bert)
    assert subscribe(client, push_service.subscription("bert")).status_code == 201
    push_service.status = 429
    push_service.headers = {"Retry-After": "90"}
    turn(game, anna)
    row = Notification.objects.filter(channel="push", kind="turn").latest("pk")
    now = timezone.now()
    assert delivery.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.next_attempt_at == now + datetime.timedelta(seconds=90)
    push_service.status = 201
    clock.shift(datetime.timedelta(seconds=90))
    assert delivery.deliver(row.pk) == "sent"
    # The refused one and the one taken: one message, one id.
    assert [p["id"] for p in push_service.payloads("bert")] == [str(row.delivery_id)] * 2
