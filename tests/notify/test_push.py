"""Web push, for real: the site encrypts for the device's keys and signs with its
VAPID key; a local push service (tests/notify/receivers.py) checks the token and
decrypts what arrives as the browser would."""

import datetime

import pytest
from django.core.management import call_command
from django.test import Client

from notify import delivery, push
from notify.models import INTERRUPTED, Notification, PushDevice

from .conftest import drain, subscribe, turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def bert_phone(push_service, bert):
    client = Client()
    client.force_login(bert)
    response = subscribe(client, push_service.subscription("bert"), name="Bert's phone")
    assert response.status_code == 201
    return PushDevice.objects.get(user=bert)


def test_a_turn_reaches_the_device_decrypted_with_its_keys(
    game, anna, bert, bert_phone, push_service
):
    turn(game, anna)
    drain()
    [payload] = push_service.payloads("bert")
    assert payload["title"] == "Your turn in “Counting”"
    assert payload["url"] == f"http://127.0.0.1:8000/g/{game.pk}/"  # bert allowed no sign-in links
    assert payload["tag"] == f"game-{game.pk}"
    assert "Deadline for your move:" in payload["body"]
    [row] = Notification.objects.filter(channel="push", kind="turn")
    assert row.device == bert_phone and row.sent_at is not None
    # The push service is told how long to keep it and that a newer one replaces it.
    [received] = push_service.received
    assert received.headers["topic"] == f"g{game.pk}" and int(received.headers["ttl"]) > 0


def test_the_mail_and_the_push_are_separate_rows_sent_once_each(
    game, anna, bert, bert_phone, push_service
):
    from .conftest import mails_to

    turn(game, anna)
    drain()
    drain()
    assert len(mails_to(bert, "Your turn")) == 1
    assert len(push_service.payloads("bert")) == 1
    sent = Notification.objects.filter(user=bert, kind="turn", sent_at__isnull=False)
    channels = sorted(sent.values_list("channel", flat=True))
    assert channels == ["email", "push"]


def test_the_push_service_answering_410_deletes_the_subscription(
    game, anna, bert, bert_phone, push_service
):
    push_service.status = 410
    turn(game, anna)
    drain()
    assert not PushDevice.objects.filter(pk=bert_phone.pk).exists()
    row = Notification.objects.get(channel="push", kind="turn")
    assert row.sent_at is None and "410" in row.skipped
    turn(game, bert)
    turn(game, anna)
    drain()
    assert len(push_service.received) == 1  # nothing more to a device that is gone


def test_404_deletes_it_too(game, anna, bert, bert_phone, push_service):
    push_service.status = 404
    turn(game, anna)
    drain()
    assert not PushDevice.objects.exists()


@pytest.mark.parametrize("status", [429, 500, 503])
def test_429_and_5xx_are_retried_with_backoff(
    game, anna, bert, bert_phone, push_service, clock, status
):
    push_service.status = status
    turn(game, anna)
    drain()
    row = Notification.objects.get(channel="push", kind="turn")
    assert row.attempts == 1 and row.sent_at is None and str(status) in row.last_error
    assert PushDevice.objects.filter(pk=bert_phone.pk).exists()
    drain()
    assert len(push_service.received) == 1  # not before its backoff
    push_service.status = 201
    clock.shift(datetime.timedelta(minutes=3))
    drain()
    row.refresh_from_db()
    assert row.sent_at is not None and len(push_service.received) == 2


def test_nothing_during_quiet_hours_then_the_push_when_they_end(
    game, anna, bert, bert_phone, push_service, clock
):
    bert.quiet_from, bert.quiet_until = datetime.time(13, 0), datetime.time(15, 0)
    bert.save()  # noon UTC is 14:00 in Berlin: quiet
    turn(game, anna)
    drain()
    assert push_service.received == []
    clock.shift(datetime.timedelta(hours=1, minutes=1))
    drain()
    assert len(push_service.payloads("bert")) == 1


def test_a_device_may_ignore_the_quiet_hours(game, anna, bert, bert_phone, push_service):
    bert.quiet_from, bert.quiet_until = datetime.time(13, 0), datetime.time(15, 0)
    bert.save()
    PushDevice.objects.filter(pk=bert_phone.pk).update(quiet_hours=False)
    turn(game, anna)
    drain()
    assert len(push_service.payloads("bert")) == 1


def test_a_device_that_wants_no_turns_gets_none(game, anna, bert, bert_phone, push_service):
    PushDevice.objects.filter(pk=bert_phone.pk).update(events=["invited"])
    turn(game, anna)
    drain()
    assert push_service.received == []


def test_a_device_following_the_digest_gets_one_push_at_the_digest_hour(
    game, three, anna, bert, bert_phone, push_service, clock
):
    bert.digest_hour = 18
    bert.save()
    PushDevice.objects.filter(pk=bert_phone.pk).update(digest=True)
    turn(game, anna)
    drain()
    assert push_service.received == []
    clock.shift(datetime.timedelta(hours=5))  # 17:00 UTC is 19:00 in Berlin
    drain()
    [payload] = push_service.payloads("bert")
    assert payload["title"] == "Your turn in 1 game"
    assert "“Counting”" in payload["body"]


def test_changing_the_quiet_hours_reschedules_the_waiting_push(
    game, anna, bert, bert_phone, push_service
):
    bert.quiet_from, bert.quiet_until = datetime.time(13, 0), datetime.time(15, 0)
    bert.save()
    turn(game, anna)
    drain()
    client = Client()
    client.force_login(bert)
    response = client.post(
        f"/notify/push/{bert_phone.pk}/edit",
        {"name": "Bert's phone", "events": ["turn"], "quiet_hours": ""},
    )
    assert response.status_code == 302
    drain()
    assert len(push_service.payloads("bert")) == 1


def test_the_site_offers_no_push_without_vapid_keys(bert, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    client = Client()
    client.force_login(bert)
    page = client.get("/settings/").content.decode()
    assert "does not offer push notifications" in page
    assert "data-push-subscribe" not in page
    response = subscribe(client, {"endpoint": "https://push.example.com/x", "keys": {}})
    assert response.status_code == 404 and not PushDevice.objects.exists()


def test_the_settings_page_lists_each_device_with_a_remove_button(bert, push_service, vapid):
    client = Client()
    client.force_login(bert)
    subscribe(client, push_service.subscription("a"), name="Phone")
    subscribe(client, push_service.subscription("b"), name="Laptop")
    page = client.get("/settings/").content.decode()
    assert "Phone" in page and "Laptop" in page and "Notify this device" in page
    assert f'data-key="{vapid}"' in page
    phone = PushDevice.objects.get(name="Phone")
    assert client.post(f"/notify/push/{phone.pk}/remove").status_code == 302
    assert list(PushDevice.objects.values_list("name", flat=True)) == ["Laptop"]


def test_nobody_removes_or_tests_anothers_device(anna, bert, push_service):
    client = Client()
    client.force_login(bert)
    subscribe(client, push_service.subscription("bert"))
    device = PushDevice.objects.get()
    client.force_login(anna)
    assert client.post(f"/notify/push/{device.pk}/remove").status_code == 404
    assert client.post(f"/notify/test/push/{device.pk}").status_code == 404
    assert PushDevice.objects.filter(pk=device.pk).exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        '{"endpoint": "https://push.example.com/x"}',
        '{"endpoint": "javascript:alert(1)", "keys": {"p256dh": "x", "auth": "y"}}',
        '["a list"]',
    ],
)
def test_junk_subscriptions_are_refused_cleanly(bert, vapid, body):
    client = Client()
    client.force_login(bert)
    response = client.post("/notify/push/subscribe", body, content_type="application/json")
    assert response.status_code == 400 and "error" in response.json()
    assert not PushDevice.objects.exists()


def test_a_subscription_aimed_at_the_sites_network_is_refused(bert, vapid, settings):
    from .receivers import PushReceiver

    settings.PING_ALLOWED_NETWORKS = []
    receiver = PushReceiver(vapid)
    try:
        client = Client()
        client.force_login(bert)
        response = subscribe(client, receiver.subscription())
    finally:
        receiver.close()
    assert response.status_code == 400 and not PushDevice.objects.exists()


def test_send_me_a_test_pushes_at_once_even_in_quiet_hours(bert, bert_phone, push_service):
    bert.quiet_from, bert.quiet_until = datetime.time(0, 0), datetime.time(23, 59)
    bert.save()
    client = Client()
    client.force_login(bert)
    response = client.post(f"/notify/test/push/{bert_phone.pk}")
    assert response.status_code == 302
    delivery.drain()
    [payload] = push_service.payloads("bert")
    assert payload["title"] == "Test message from Play by Web"
    assert "Bert's phone" in payload["body"]
    assert "Test sent at" in client.get("/settings/").content.decode()


def test_vapid_keys_command_makes_a_pair_that_signs(capsys, settings):
    call_command("vapid_keys")
    out = capsys.readouterr().out
    lines = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    settings.VAPID_PUBLIC_KEY = lines["VAPID_PUBLIC_KEY"]
    settings.VAPID_PRIVATE_KEY = lines["VAPID_PRIVATE_KEY"]
    header = push.vapid_headers("https://push.example.com/abc")["Authorization"]
    assert header.startswith("vapid t=") and f"k={lines['VAPID_PUBLIC_KEY']}" in header


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in response.content and b"notificationclick" in response.content


def test_a_muted_game_sends_no_push_either(game, anna, bert, bert_phone, push_service):
    from notify.models import Mute

    Mute.objects.create(user=bert, game=game)
    turn(game, anna)
    drain()
    assert push_service.received == []
    assert Notification.objects.get(channel="push", kind="turn").skipped == "muted"


def test_a_push_cut_off_by_a_dead_worker_goes_again_with_the_same_id_once_its_claim_is_stale(
    game, anna, bert, bert_phone, push_service, settings
):
    from django.utils import timezone

    turn(game, anna)
    row = Notification.objects.get(channel="push", kind="turn")
    # A worker claimed it, connected, and died: the push may have arrived.
    cut_off = {"claimed_at": timezone.now(), "sending_at": timezone.now(), "sent_at": None}
    Notification.objects.filter(pk=row.pk).update(**cut_off)
    push_service.received.clear()
    assert delivery.deliver(row.pk) == "not claimed"  # the claim is fresh: it is held
    stale = timezone.now() - datetime.timedelta(seconds=settings.PING_CLAIM_TIMEOUT + 1)
    Notification.objects.filter(pk=row.pk).update(claimed_at=stale)
    assert delivery.deliver(row.pk) == "sent"
    [again] = push_service.payloads("bert")
    assert again["id"] == str(row.delivery_id)


def test_the_admin_lists_pushes_by_channel_and_retries_an_interrupted_one(
    game, anna, bert, bert_phone, push_service
):
    from tests.factories import UserFactory

    turn(game, anna)
    row = Notification.objects.get(channel="push", kind="turn")
    # Left by an earlier version, which sent a cut-off push no more.
    Notification.objects.filter(pk=row.pk).update(skipped=INTERRUPTED)
    assert delivery.deliver(row.pk) == "not claimed"
    assert push_service.received == []
    admin = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/notify/notification/?state=interrupted&channel=push")
    assert listing.status_code == 200 and f"push {bert_phone.pk}" in listing.content.decode()
    # The endpoint lets anyone push to the device: no list filters on it.
    secret = client.get("/admin/notify/notification/?device__endpoint__contains=x")
    assert secret.status_code == 400
    client.post(
        "/admin/notify/notification/", {"action": "retry_now", "_selected_action": [row.pk]}
    )
    row.refresh_from_db()
    assert row.sent_at is not None and row.skipped == "" and len(push_service.received) == 1


def test_send_me_a_test_e_mail_and_not_twice_a_minute(bert, clock):
    from django.core import mail

    client = Client()
    client.force_login(bert)
    client.post("/notify/test/email")
    client.post("/notify/test/email")
    delivery.drain()
    assert [m.subject for m in mail.outbox] == ["Test message from Play by Web"]
    page = client.get("/settings/").content.decode()
    assert "Test sent at" in page
    clock.shift(datetime.timedelta(minutes=2))
    client.post("/notify/test/email")
    delivery.drain()
    assert len(mail.outbox) == 2


def test_an_unknown_channel_is_no_error(bert):
    client = Client()
    client.force_login(bert)
    assert client.post("/notify/test/carrier-pigeon").status_code == 404
    assert client.post("/notify/test/webhook/999").status_code == 404
    assert client.get("/notify/test/email").status_code == 405
