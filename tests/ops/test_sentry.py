"""With SENTRY_DSN, an error in a request reaches Sentry (here a fake receiver on
127.0.0.1) through the real middleware path, with no e-mail address, user name,
client address, cookie or request body in it; of the user only the id."""

import gzip
import json
import socket
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import sentry_sdk
from celery import shared_task
from django.test import Client

from ops import errors
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CLIENT_ADDRESS = "203.0.113.77"


def free_port() -> int:
    for port in range(20100, 20200):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("no free port in 20100-20199")


class Receiver(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":
            import brotli

            body = brotli.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        Receiver.received.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def sentry():
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)
    Receiver.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    errors.init(f"http://publickey@127.0.0.1:{port}/1", "test", 0.0, "1.0.0")
    try:
        yield Receiver.received
    finally:
        sentry_sdk.get_client().close(timeout=2)
        sentry_sdk.init()  # no DSN: reports nothing from here on
        server.shutdown()
        server.server_close()


def events(envelopes: list[bytes]) -> list[tuple[bytes, dict]]:
    """(raw item, parsed item) of each event in the envelopes (header line skipped)."""
    found = []
    for envelope in envelopes:
        lines = envelope.split(b"\n")
        for header, item in zip(lines[1::2], lines[2::2], strict=False):
            if json.loads(header).get("type") == "event":
                found.append((item, json.loads(item)))
    return found


def test_an_error_report_reaches_sentry_without_personal_data(sentry, settings):
    settings.ROOT_URLCONF = "tests.ops.urls"
    settings.DEBUG = False
    user = UserFactory(username="zelda-the-player", email="zelda@example.org")
    client = Client(raise_request_exception=False, REMOTE_ADDR=CLIENT_ADDRESS)
    client.force_login(user)
    client.cookies["remember"] = "zelda@example.org"
    response = client.post(
        "/test-failure",
        {"chat": "my secret chat line", "email": "zelda@example.org"},
        headers={"X-Forwarded-For": CLIENT_ADDRESS},
    )
    assert response.status_code == 500
    sentry_sdk.flush(timeout=5)
    reports = events(sentry)
    assert len(reports) == 1
    raw, event = reports[0]
    assert event["exception"]["values"][0]["type"] == "RuntimeError"
    assert event["user"] == {"id": str(user.pk)}
    assert event["release"] == "1.0.0" and event["environment"] == "test"
    for personal in (
        b"zelda@example.org", b"zelda-the-player", CLIENT_ADDRESS.encode(), b"my secret chat",
        b"sessionid", b"csrftoken",
    ):  # fmt: skip
        assert personal not in raw, personal


def test_scrub_blanks_addresses_in_any_text():
    event = {
        "message": "mail to a@b.example from 10.1.2.3 and 2001:db8::1:2:3",
        "request": {
            "data": "x",
            "cookies": {"s": "1"},
            "headers": {"Cookie": "s=1", "Accept": "*/*"},
        },
        "breadcrumbs": {"values": [{"message": "sql", "data": {"params": ["a@b.example"]}}]},
    }
    scrubbed = errors.scrub(event)
    assert "a@b.example" not in json.dumps(scrubbed)
    assert "10.1.2.3" not in json.dumps(scrubbed)
    assert scrubbed["request"] == {"headers": {"Accept": "*/*"}}


@shared_task(name="tests.ops.fail_with_an_address")
def fail_with_an_address(address: str) -> None:
    raise RuntimeError(f"could not reach {address}")


def test_a_failing_celery_task_is_reported_too(sentry):
    fail_with_an_address.delay("zelda@example.org")  # eager here, as in make test
    sentry_sdk.flush(timeout=5)
    reports = events(sentry)
    assert len(reports) == 1
    raw, event = reports[0]
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert b"zelda@example.org" not in raw
