"""Webhooks, for real: local HTTP servers take Discord, Slack, Matrix and signed JSON
posts; the site refuses to post into its own network, follows no redirect and
switches a hook off after 20 failures in a row."""

import datetime
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core import mail
from django.test import Client

from games import play
from notify import delivery, netsafe, webhooks
from notify.models import Handle, Notification, Webhook

from .conftest import add_hook, drain, turn

pytestmark = pytest.mark.django_db


def test_a_signed_json_post_for_each_turn(game, anna, bert, hooks, local_targets):
    receiver = hooks(secret="k" * 64)
    hook = add_hook(bert, receiver.url + "/in")
    turn(game, anna)
    drain()
    [post] = receiver.received  # the receiver checked the signature and the timestamp
    assert post.path == "/in"
    data = post.data
    assert data["event"] == "turn" and data["title"] == "Your turn in “Counting”"
    assert data["game"] == {
        "id": game.pk,
        "title": "Counting",
        "kind": "count",
        "url": f"http://127.0.0.1:8000/g/{game.pk}/",
    }
    assert data["url"] == f"http://127.0.0.1:8000/g/{game.pk}/"
    row = Notification.objects.get(channel="webhook", webhook=hook)
    assert post.headers["x-pbw-delivery"] == data["id"] == str(row.delivery_id)
    assert row.sent_at is not None


def test_a_forged_signature_is_refused_by_a_receiver_that_checks(
    game, anna, bert, hooks, local_targets
):
    receiver = hooks(secret="the-receivers-idea-of-the-key")
    add_hook(bert, receiver.url)  # the site signs with another key
    turn(game, anna)
    drain()
    assert receiver.received == [] and receiver.refused == ["bad signature"]


def test_discord_and_slack_and_matrix_bodies(game, anna, bert, hooks, local_targets):
    discord, slack, matrix = hooks(), hooks(), hooks()
    add_hook(bert, discord.url + "/api/webhooks/1/abc", service="discord")
    add_hook(bert, slack.url + "/services/T/B/X", service="slack")
    add_hook(bert, matrix.url + "/webhook/xyz", service="matrix")
    Handle.objects.create(user=bert, service="discord", handle="123456789012")
    turn(game, anna)
    drain()
    [d], [s], [m] = discord.bodies(), slack.bodies(), matrix.bodies()
    assert d["content"].startswith("Your turn in “Counting”\n<@123456789012>")
    assert d["allowed_mentions"] == {"parse": [], "users": ["123456789012"]}
    assert f"/g/{game.pk}/" in d["content"]
    assert s["text"].startswith("Your turn in “Counting”\nBert") and f"/g/{game.pk}/" in s["text"]
    assert m["text"].startswith("Your turn in “Counting”") and m["username"] == "Play by Web"


def test_the_answers_body_is_never_kept(game, anna, bert, hooks, local_targets):
    receiver = hooks(status=500)
    hook = add_hook(bert, receiver.url)
    turn(game, anna)
    drain()
    row = Notification.objects.get(webhook=hook)
    hook.refresh_from_db()
    assert "500" in row.last_error and "secret-answer-body" not in row.last_error
    assert "secret-answer-body" not in hook.last_error


def test_a_game_channel_posts_every_turn_mentioning_who_is_to_move(
    game, anna, bert, hooks, local_targets
):
    receiver = hooks()
    Handle.objects.create(user=bert, service="discord", handle="222222222222")
    client = Client()
    client.force_login(anna)  # the creator
    response = client.post(
        "/notify/webhooks/channel",
        {"game": game.pk, "service": "discord", "url": receiver.url + "/api/webhooks/9/x"},
    )
    assert response.status_code == 302, response
    hook = Webhook.objects.get(game=game)
    turn(game, anna)
    drain()
    turn(game, bert)
    drain()
    first, second = receiver.bodies()
    assert first["content"].startswith(
        r"To move in “Counting” \(Count to Ten\):" + "\n<@222222222222>"
    )
    assert first["allowed_mentions"] == {"parse": [], "users": ["222222222222"]}
    assert second["content"].startswith(
        r"To move in “Counting” \(Count to Ten\):" + "\nAnna"
    )  # no handle given
    assert hook.user == anna


def test_only_the_creator_sets_up_a_games_channel(game, bert, hooks, local_targets):
    receiver = hooks()
    client = Client()
    client.force_login(bert)
    client.post(
        "/notify/webhooks/channel", {"game": game.pk, "service": "slack", "url": receiver.url}
    )
    assert not Webhook.objects.exists()


def test_the_settings_page_adds_a_discord_hook_and_sends_it_a_test(bert, hooks, local_targets):
    receiver = hooks()
    client = Client()
    client.force_login(bert)
    response = client.post(
        "/notify/webhooks/add",
        {"service": "discord", "url": receiver.url + "/api/webhooks/1/x", "events": ["turn"]},
    )
    assert response.status_code == 302
    hook = Webhook.objects.get(user=bert)
    assert hook.events == ["turn"] and hook.game is None and len(hook.secret) == 64
    client.post(f"/notify/test/webhook/{hook.pk}")
    delivery.drain()
    [body] = receiver.bodies()
    assert body["content"].startswith("Test message from Play by Web\nYour Discord webhook works.")
    page = client.get("/settings/").content.decode()
    assert "127.0.0.1" in page and "Test sent at" in page


# ---- SSRF: the site posts only to the public internet -----------------------------


REFUSED = [
    "http://127.0.0.1/",
    "http://127.0.0.1:8000/admin/",
    "http://[::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "http://0.0.0.0/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fe80::1]/",
    "http://224.0.0.1/",
    "http://localhost/",  # a name that resolves to loopback
    "ftp://example.com/",
    "file:///etc/passwd",
    "http://user:pw@example.com/",
]


@pytest.mark.parametrize("url", REFUSED)
def test_the_sites_own_network_is_refused(url, settings):
    settings.PING_ALLOWED_NETWORKS = []
    with pytest.raises(netsafe.Refused):
        netsafe.resolve(url)


@pytest.mark.parametrize("url", REFUSED[:12])
def test_the_settings_page_refuses_them_with_a_reason(url, bert, settings):
    settings.PING_ALLOWED_NETWORKS = []
    client = Client()
    client.force_login(bert)
    response = client.post("/notify/webhooks/add", {"service": "json", "url": url}, follow=True)
    assert response.status_code == 200
    assert "The site cannot post to this address" in response.content.decode()
    assert not Webhook.objects.exists()


def test_a_name_that_resolves_to_loopback_later_is_refused_when_sending(
    game, anna, bert, hooks, settings
):
    """The check is made at every send, against the address connected to."""
    settings.PING_ALLOWED_NETWORKS = []
    receiver = hooks()
    hook = add_hook(bert, f"http://localhost:{receiver.port}/")
    turn(game, anna)
    drain()
    assert receiver.received == []
    row = Notification.objects.get(webhook=hook)
    assert row.sent_at is None and "not on the public internet" in row.last_error


class Redirecting(BaseHTTPRequestHandler):
    target = ""

    def do_POST(self):
        self.send_response(307)
        self.send_header("Location", self.target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def redirector():
    """A server on 127.0.0.2 that answers every post with a redirect."""
    server = ThreadingHTTPServer(("127.0.0.2", 0), Redirecting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_redirect_to_loopback_is_not_followed(game, anna, bert, hooks, redirector, settings):
    # The operator lets the redirecting host through, and nothing else of this machine.
    settings.PING_ALLOWED_NETWORKS = ["127.0.0.2/32"]
    loopback = hooks()
    Redirecting.target = loopback.url + "/stolen"
    hook = add_hook(bert, f"http://127.0.0.2:{redirector.server_address[1]}/hook")
    turn(game, anna)
    drain()
    assert loopback.received == []
    row = Notification.objects.get(webhook=hook)
    assert row.sent_at is None and "307" in row.last_error


def test_a_redirect_is_not_followed_even_to_an_allowed_address(
    game, anna, bert, hooks, redirector, local_targets
):
    target = hooks()
    Redirecting.target = target.url
    add_hook(bert, f"http://127.0.0.2:{redirector.server_address[1]}/")
    turn(game, anna)
    drain()
    assert target.received == []


def test_a_hook_that_does_not_answer_times_out(game, anna, bert, local_targets, settings):
    import socket

    settings.PING_TIMEOUT = 0.5
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()  # accepts the connection, never answers
    try:
        hook = add_hook(bert, f"http://127.0.0.1:{silent.getsockname()[1]}/")
        turn(game, anna)
        drain()
    finally:
        silent.close()
    row = Notification.objects.get(webhook=hook)
    assert row.sent_at is None and row.attempts == 1 and "timed out" in row.last_error


# ---- failing hooks are switched off ----------------------------------------------


def test_twenty_failures_in_a_row_switch_the_hook_off_with_a_notice_and_one_mail(
    game, anna, bert, hooks, local_targets, clock
):
    receiver = hooks(status=500)
    hook = add_hook(bert, receiver.url, service="discord")
    turn(game, anna)
    for _ in range(25):
        drain()
        clock.shift(datetime.timedelta(hours=7))  # past the longest backoff
    hook.refresh_from_db()
    assert len(receiver.received) == 20  # no post after the twentieth failure
    assert hook.failures == 20 and hook.disabled_at is not None
    row = Notification.objects.get(webhook=hook, kind="turn")
    assert row.skipped == "webhook switched off"
    off_mails = [m for m in mail.outbox if "webhook was switched off" in m.subject]
    assert len(off_mails) == 1 and off_mails[0].to == [bert.email]
    assert "failed 20 times in a row" in off_mails[0].body
    assert "/api/" not in off_mails[0].body  # the hook's key is not in the mail
    client = Client()
    client.force_login(bert)
    page = client.get("/settings/").content.decode()
    assert "failed 20 times in a row and was switched off" in page
    # Switched on again, it counts from nothing and gets the next turns.
    client.post(f"/notify/webhooks/{hook.pk}/enable")
    hook.refresh_from_db()
    assert hook.disabled_at is None and hook.failures == 0


def test_a_success_resets_the_count(game, anna, bert, hooks, local_targets, clock):
    receiver = hooks(status=500)
    hook = add_hook(bert, receiver.url)
    turn(game, anna)
    drain()
    hook.refresh_from_db()
    assert hook.failures == 1
    receiver.status = 204
    clock.shift(datetime.timedelta(minutes=3))
    drain()
    hook.refresh_from_db()
    assert hook.failures == 0 and len(receiver.received) == 2


def test_quiet_hours_hold_a_hook_that_follows_them(game, anna, bert, hooks, local_targets, clock):
    receiver = hooks()
    add_hook(bert, receiver.url)
    bert.quiet_from, bert.quiet_until = datetime.time(13, 0), datetime.time(15, 0)
    bert.save()
    turn(game, anna)
    drain()
    assert receiver.received == []
    clock.shift(datetime.timedelta(hours=1, minutes=1))
    drain()
    assert len(receiver.received) == 1


def test_the_signature_recipe_of_the_docs(settings):
    hook = Webhook(service="json", secret="s3cret", url="https://example.com/")
    ping = webhooks.Ping(event="test", title="T", lines=[], url="https://x/")
    body, headers = webhooks.WebhookPost(hook, ping, "7").request(now=1_700_000_000)
    assert headers["X-PBW-Timestamp"] == "1700000000"
    import hashlib
    import hmac

    mac = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert headers["X-PBW-Signature"] == f"sha256={mac}"
    assert json.loads(body)["id"] == "7"


def test_a_game_that_starts_tells_the_channel(count_kind, anna, bert, hooks, local_targets):
    receiver = hooks()
    game = play.create_game(
        anna, count_kind, title="Later", players=2, options={}, time_limit_days=3, private=False
    )
    add_hook(anna, receiver.url, service="slack", game=game, events=["turn", "game"])
    play.join(game.pk, bert)
    drain()
    # One post: the start names who moves first, so the first turn has no post of its own.
    [text] = [b["text"] for b in receiver.bodies()]
    assert text.startswith("“Later” (Count to Ten) has started.")
    game.refresh_from_db()
    first = game.seats.get(to_move=True).user
    assert first.name in text
    assert Notification.objects.get(webhook__game=game, kind="turn").sent_at is not None


def test_at_most_five_webhooks_and_ten_devices(bert, hooks, local_targets, push_service):
    from .conftest import subscribe

    receiver = hooks()
    client = Client()
    client.force_login(bert)
    for n in range(6):
        client.post("/notify/webhooks/add", {"service": "slack", "url": f"{receiver.url}/{n}"})
    assert Webhook.objects.filter(user=bert).count() == 5
    codes = [subscribe(client, push_service.subscription(f"d{n}")).status_code for n in range(11)]
    assert codes == [201] * 10 + [400]


# ---- IPv6 addresses that carry a private or loopback IPv4 ------------------------

# Each stands for 127.0.0.1 or a private IPv4 through a relay or translator.
EMBEDDING = {
    "6to4 (the probe's)": "http://[2002:7f00:1::]:8509/",
    "6to4 private": "http://[2002:c0a8:101::1]/",
    "NAT64": "http://[64:ff9b::7f00:1]/",
    "NAT64 private": "http://[64:ff9b::a00:1]/",
    "NAT64 local use": "http://[64:ff9b:1::808:808]/",
    "Teredo client": "http://[2001:0:808:808::80ff:fffe]/",  # client 127.0.0.1, inverted
    "Teredo server": "http://[2001:0:7f00:1::]/",
    "IPv4-mapped": "http://[::ffff:a00:1]/",
    "IPv4-compatible": "http://[::7f00:1]/",
}


def test_the_probes_6to4_address_is_refused_at_save_with_a_reason(bert, settings):
    settings.PING_ALLOWED_NETWORKS = []
    client = Client()
    client.force_login(bert)
    url = EMBEDDING["6to4 (the probe's)"]
    response = client.post("/notify/webhooks/add", {"service": "json", "url": url}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "The site cannot post to this address: address 127.0.0.1 is not on the public" in page
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("url", EMBEDDING.values(), ids=EMBEDDING.keys())
def test_an_address_embedding_a_private_ipv4_is_refused_when_sending(
    url, game, anna, bert, settings
):
    settings.PING_ALLOWED_NETWORKS = []
    hook = add_hook(bert, url)  # saved before the check existed, or by an operator
    turn(game, anna)
    drain()
    row = Notification.objects.get(webhook=hook)
    assert row.sent_at is None and "not on the public internet" in row.last_error


@pytest.mark.parametrize("address", ["2002:808:808::1", "::ffff:8.8.8.8"])
def test_one_embedding_a_public_ipv4_passes(address, settings):
    settings.PING_ALLOWED_NETWORKS = []
    netsafe.check_address(address)


def test_every_address_a_name_resolves_to_is_checked_for_an_embedded_ipv4(settings, monkeypatch):
    settings.PING_ALLOWED_NETWORKS = []
    answers = ["8.8.8.8", "2002:7f00:1::"]  # a public one first, the hidden loopback second
    found = [(socket.AF_INET6 if ":" in a else socket.AF_INET, 1, 6, "", (a, 80)) for a in answers]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: found)
    with pytest.raises(netsafe.Refused, match="127.0.0.1"):
        netsafe.resolve("http://rotating.example/")


def test_an_allowed_network_lets_its_embedded_addresses_through(settings):
    settings.PING_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    netsafe.check_address("2002:7f00:1::")
    settings.PING_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    with pytest.raises(netsafe.Refused):
        netsafe.check_address("2002:7f00:1::")
