"""Chromium on the settings page: "Notify this device" registers the service worker
from the site's root (scope /) under the strict CSP, gets the notification
permission and subscribes with the site's VAPID key; the page stores what the
browser gives it, and the service worker shows what the site pushes.

What this machine cannot do: Chromium gets a push subscription from its push service
(Google's FCM) over the network. In Playwright's default (incognito) context push is
refused outright ("Registration failed - permission denied", also with the push
permission granted through the DevTools protocol); in a persistent profile the
permission is granted and ``pushManager.subscribe`` waits for FCM, which it cannot
reach here. So the first test checks everything up to that call, and the second
replaces only ``pushManager.subscribe`` with the subscription of the local push
service of tests/notify/receivers.py: the page posts it, the site stores it, a move
sends a push that the receiver decrypts, and the page's real service worker shows
the decrypted payload, delivered to it through the DevTools protocol.
"""

import json
import tempfile

import pytest
from django.conf import settings
from django.test import Client

from games import play
from notify import delivery, push
from notify.models import PushDevice
from tests.factories import UserFactory

from .conftest import CHROMIUM, check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def vapid(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_keys()
    settings.VAPID_SUBJECT = "mailto:admin@example.com"
    settings.PING_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    return settings.VAPID_PUBLIC_KEY


@pytest.fixture
def profile(browser, live_server):
    """A signed-in Chromium with a profile on disk: push is refused to incognito ones.
    Started by the session's Playwright (one per process), beside its browser."""
    opened = {"csp": []}

    def open_as(user):
        client = Client()
        client.force_login(user)
        context = browser.browser_type.launch_persistent_context(
            tempfile.mkdtemp(prefix="pbw-chromium-"),
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        context.grant_permissions(["notifications"], origin=live_server.url)
        opened["context"] = context
        page = context.new_page()
        page.on(
            "console",
            lambda m: "Content Security Policy" in m.text and opened["csp"].append(m.text),
        )
        return page

    yield open_as
    if "context" in opened:
        opened["context"].close()
    assert not opened["csp"], opened["csp"]


def registration(page) -> dict:
    return page.evaluate(
        """() => navigator.serviceWorker.ready.then(r => ({
            scope: r.scope, script: r.active && r.active.scriptURL,
            permission: Notification.permission}))"""
    )


def test_notify_this_device_registers_the_worker_and_asks_to_subscribe(profile, live_server, vapid):
    bert = UserFactory(username="bert", display_name="Bert")
    page = profile(bert)
    page.goto(f"{live_server.url}/settings/#push")
    check_axe(page, "settings with push")
    page.click("[data-push-subscribe]")
    found = registration(page)
    assert found == {
        "scope": f"{live_server.url}/",
        "script": f"{live_server.url}/sw.js",
        "permission": "granted",
    }
    state = page.evaluate(
        """key => navigator.serviceWorker.ready.then(r => r.pushManager.permissionState(
            {userVisibleOnly: true, applicationServerKey: key}))""",
        vapid,
    )
    assert state == "granted"
    assert page.text_content("[data-push-status]") == "Asking the browser…"


STUB = """
(() => {
  const subscription = %s;
  PushManager.prototype.getSubscription = function () { return Promise.resolve(null); };
  PushManager.prototype.subscribe = function (options) {
    const key = Array.from(new Uint8Array(options.applicationServerKey));
    sessionStorage.setItem("subscribedWith", JSON.stringify(key));
    return Promise.resolve({ toJSON: () => subscription });
  };
})();
"""


def test_the_page_stores_the_subscription_and_the_worker_shows_the_push(
    profile, live_server, vapid, count_kind
):
    from tests.notify.receivers import PushReceiver, b64decode

    anna = UserFactory(username="anna", display_name="Anna", quiet_from=None, quiet_until=None)
    bert = UserFactory(username="bert", display_name="Bert", quiet_from=None, quiet_until=None)
    receiver = PushReceiver(vapid, status=201)
    try:
        page = profile(bert)
        page.add_init_script(STUB % json.dumps(receiver.subscription("bert")))
        page.goto(f"{live_server.url}/settings/#push")
        page.fill("[data-push-name]", "Bert's Chromium")
        page.click("[data-push-subscribe]")
        page.wait_for_selector("[data-device]", timeout=15000)  # the page reloaded with it
        assert "Bert's Chromium" in page.text_content("[data-device]")
        # The page subscribed with the site's VAPID public key.
        key = page.evaluate("() => sessionStorage.getItem('subscribedWith')")
        assert json.loads(key) == list(b64decode(vapid))
        device = PushDevice.objects.get(user=bert)
        assert device.name == "Bert's Chromium"
        assert device.endpoint == f"{receiver.url}/push/bert"

        game = play.create_game(
            anna,
            count_kind,
            title="Pushed",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        )
        play.join(game.pk, bert)
        receiver.received.clear()
        to_move = game.seats.get(to_move=True).user
        play.act(game.pk, to_move, {"type": "add", "n": 1}, None)
        play.act(game.pk, to_move, {"type": "end"}, None)
        if to_move == bert:  # bert's turn must be the one that is pushed
            play.act(game.pk, anna, {"type": "add", "n": 1}, None)
            play.act(game.pk, anna, {"type": "end"}, None)
        delivery.drain()
        payload = receiver.payloads("bert")[-1]
        assert payload["title"] == "Your turn in “Pushed”"

        # The decrypted payload, handed to the page's own service worker as a push.
        cdp = page.context.new_cdp_session(page)
        registration_id = _registration_id(page, cdp, live_server.url)
        shown = []
        for _ in range(3):  # a worker that was stopped may miss the first delivery
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": live_server.url,
                    "registrationId": registration_id,
                    "data": json.dumps(payload),
                },
            )
            for _ in range(20):
                shown = page.evaluate(
                    """() => navigator.serviceWorker.ready.then(r => r.getNotifications())
                    .then(n => n.map(x => ({title: x.title, body: x.body, tag: x.tag,
                                            url: x.data.url})))"""
                )
                if shown:
                    break
                page.wait_for_timeout(200)
            if shown:
                break
        assert shown == [
            {
                "title": payload["title"],
                "body": payload["body"],
                "tag": f"game-{game.pk}",
                "url": f"http://127.0.0.1:8000/g/{game.pk}/",
            }
        ]
    finally:
        receiver.close()


def _registration_id(page, cdp, origin: str) -> str:
    """The service worker registration of ``origin``, as the DevTools protocol names it."""
    found = {}

    def seen(event):
        for item in event["registrations"]:
            if item["scopeURL"] == f"{origin}/" and not item["isDeleted"]:
                found["id"] = item["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.disable")
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        if "id" in found:
            break
        page.wait_for_timeout(100)  # lets Playwright hand over the protocol's events
    assert "id" in found, "no service worker registration reported"
    return found["id"]
