import datetime

import pytest
import time_machine
from django.core import mail

from games import play
from notify import delivery
from tests.factories import UserFactory

# A Wednesday noon in UTC: outside everybody's default quiet hours in Europe.
NOON = datetime.datetime(2030, 5, 15, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock():
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


@pytest.fixture
def anna(db):
    return UserFactory(username="anna", display_name="Anna", time_zone="Europe/Berlin")


@pytest.fixture
def bert(db):
    return UserFactory(username="bert", display_name="Bert", time_zone="Europe/Berlin")


@pytest.fixture
def carla(db):
    return UserFactory(username="carla", display_name="Carla", time_zone="Europe/Berlin")


@pytest.fixture
def three(clock, count_kind, anna, bert, carla):
    """A running game of three, "Three", its start mails sent and cleared."""
    game = play.create_game(
        anna, count_kind, title="Three", players=3, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)
    play.join(game.pk, carla)
    drain()
    mail.outbox.clear()
    return game


@pytest.fixture
def game(clock, count_kind, anna, bert):
    """A running game of Count to Ten, anna in seat 0 (to move), bert in seat 1."""
    game = play.create_game(
        anna, count_kind, title="Counting", players=2, options={}, time_limit_days=4, private=False
    )
    play.join(game.pk, bert)
    game.refresh_from_db()
    seats = {s.user_id: s for s in game.seats.all()}
    if seats[anna.pk].number != 0:
        # Seating is drawn from the seed; swap so the tests read in one order.
        a, b = seats[anna.pk], seats[bert.pk]
        a.number, b.number = None, None
        a.save(), b.save()
        a.number, b.number = 0, 1
        a.to_move, b.to_move = b.to_move, a.to_move
        a.to_move_since, b.to_move_since = b.to_move_since, a.to_move_since
        a.save(), b.save()
    drain()
    mail.outbox.clear()
    return game


def drain():
    return delivery.drain()


def turn(game, user, n=1):
    """One whole turn of Count to Ten: add ``n``, then end the turn."""
    play.act(game.pk, user, {"type": "add", "n": n}, None)
    play.act(game.pk, user, {"type": "end"}, None)


def mails_to(user, kind_words=""):
    return [m for m in mail.outbox if m.to == [user.email] and kind_words in m.subject]


# ---- pushes and webhooks: real receivers on 127.0.0.1 ----------------------------


@pytest.fixture
def vapid(settings):
    """The site's VAPID pair, as `manage.py vapid_keys` makes one."""
    from notify import push

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_keys()
    settings.VAPID_SUBJECT = "mailto:admin@example.com"
    return settings.VAPID_PUBLIC_KEY


@pytest.fixture
def local_targets(settings):
    """The operator's setting that lets posts reach the receivers on this machine."""
    settings.PING_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.PING_TIMEOUT = 3


@pytest.fixture
def push_service(vapid, local_targets):
    from .receivers import PushReceiver

    receiver = PushReceiver(vapid, status=201)
    yield receiver
    receiver.close()


@pytest.fixture
def hooks():
    """Start webhook receivers: ``hooks(secret="...", status=200)``."""
    from .receivers import HookReceiver

    started = []

    def start(**kwargs):
        receiver = HookReceiver(**kwargs)
        started.append(receiver)
        return receiver

    yield start
    for receiver in started:
        receiver.close()


def subscribe(client, subscription: dict, name: str = "phone"):
    """What the settings page's script posts after the browser subscribed."""
    import json

    return client.post(
        "/notify/push/subscribe",
        json.dumps({**subscription, "name": name}),
        content_type="application/json",
    )


def add_hook(user, url: str, service: str = "json", **fields):
    from notify.models import Webhook

    return Webhook.objects.create(user=user, service=service, url=url, secret="k" * 64, **fields)
