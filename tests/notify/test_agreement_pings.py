"""A request to pause, to end a pause early or to take back a turn waits for the answer of
everyone else at the table: it reaches them on the devices and webhooks that want game
news, as a request to cancel does, and not on those that want only their turns."""

import datetime

import pytest
from django.test import Client

from agreements import flows
from agreements.models import Request
from notify.models import Events

from .conftest import add_hook, drain, subscribe

pytestmark = pytest.mark.django_db


def test_a_pause_request_is_pushed_and_posted_to_the_others(game, anna, bert, push_service, hooks):
    receiver = hooks(secret="k" * 64)
    client = Client()
    client.force_login(bert)
    subscribe(client, push_service.subscription("bert"))
    add_hook(bert, receiver.url)
    flows.ask(game.pk, anna, Request.Kind.PAUSE, game.deadline + datetime.timedelta(days=3))
    drain()
    [payload] = push_service.payloads("bert")
    assert payload["title"] == "Pause “Counting”?"
    assert payload["url"].endswith(f"/g/{game.pk}/")
    [body] = receiver.bodies()
    assert body["event"] == "pause_asked"
    assert push_service.payloads("anna") == []  # the one who asks is not told


def test_a_device_that_wants_only_turns_is_not_asked(game, anna, bert, push_service, hooks):
    receiver = hooks(secret="k" * 64)
    add_hook(bert, receiver.url, events=[Events.TURN])
    flows.ask(game.pk, anna, Request.Kind.PAUSE, game.deadline + datetime.timedelta(days=3))
    drain()
    assert receiver.bodies() == []


def test_game_mail_switched_off_still_leaves_the_push(game, anna, bert, push_service):
    bert.notify_game_end = False
    bert.save()
    client = Client()
    client.force_login(bert)
    subscribe(client, push_service.subscription("bert"))
    flows.ask(game.pk, anna, Request.Kind.PAUSE, game.deadline + datetime.timedelta(days=3))
    drain()
    assert len(push_service.payloads("bert")) == 1
