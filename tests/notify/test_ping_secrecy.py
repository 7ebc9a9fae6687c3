"""No Tal secret in a push or a webhook post: a push shows on a locked phone and a
webhook posts where others read, so they carry only what every seat may see."""

import json
import random

import pytest
from django.test import Client

from games import replay, text
from notify.models import Webhook
from tests.factories import UserFactory, running_game

from .conftest import add_hook, drain, subscribe
from .test_real_engines import play_randomly

pytestmark = pytest.mark.django_db


def test_no_tal_bid_or_plan_reaches_a_push_or_a_webhook(clock, push_service, hooks):
    users = [UserFactory(username=f"p{i}", display_name=f"Player{i}") for i in range(3)]
    channel = hooks()
    personal = hooks(secret="k" * 64)
    for user in users:
        user.quiet_from = user.quiet_until = None
        user.save()
        client = Client()
        client.force_login(user)
        subscribe(client, push_service.subscription(user.username))
        add_hook(user, f"{personal.url}/{user.username}", events=["turn", "reminder", "game"])
    game = running_game("tal", users, title="Tal")
    Webhook.objects.create(
        user=users[0], game=game, service="discord", url=channel.url, secret="x", events=["turn"]
    )
    names = {s.number: s.user.name for s in game.seats.select_related("user")}
    seat_of = {s.user.username: s.number for s in game.seats.select_related("user")}
    seen = {"push": 0, "hook": 0, "channel": 0}
    checked = 0

    def check(game):
        nonlocal checked
        drain()
        state = replay.current_state(game)
        secrets = [
            e
            for e in state.log
            if e.get("owner") is not None
            and not (e.get("secret") is not None and e["secret"] in state.revealed)
        ]
        posts = [
            (r.path.rsplit("/", 1)[-1], "push", json.dumps(r.data, ensure_ascii=False))
            for r in push_service.received
        ]
        posts += [
            (r.path.rsplit("/", 1)[-1], "hook", json.dumps(r.data, ensure_ascii=False))
            for r in personal.received
        ]
        posts += [
            (None, "channel", json.dumps(r.data, ensure_ascii=False)) for r in channel.received
        ]
        for owner, kind, body in posts:
            seen[kind] += 1
            mine = seat_of.get(owner)
            for entry in secrets:
                if entry["owner"] != mine:  # another seat's bid or plan
                    assert text.render(entry, names) not in body, (kind, owner, entry)
                    checked += 1
        for receiver in (push_service, personal, channel):
            receiver.received.clear()

    play_randomly(game, users, 150, random.Random(11), after=check)
    assert checked > 10
    assert all(count > 3 for count in seen.values()), seen
