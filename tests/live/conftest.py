"""The live tests run the site for real: uvicorn in a thread of the test process, on a
free port, serving ``config.asgi.application`` on the test database (transactional:
the server's threads read what the test committed), and a small client that reads the
event stream over HTTP. ``hub_mode``: the in-process hub, and Redis where REDIS_URL is
set (skipped otherwise; a failure under REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import asyncio
import http.client
import socket
import threading
import time

import pytest
from django.conf import settings as django_settings
from django.db import connections

from tests.conftest import need_service
from tests.notify.test_real_services import own_redis  # noqa: F401  (a fixture)


@pytest.fixture(autouse=True)
def _async_safety(request, monkeypatch):
    """Database access from the event loop fails here, as in production (the browser
    tests allow it for their own thread, and so for the whole process: not these)."""
    try:
        asyncio.get_running_loop()  # Playwright's, left running by an earlier browser test
    except RuntimeError:
        if request.node.get_closest_marker("browser") is None:
            monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE", raising=False)


@pytest.fixture(autouse=True)
def _live_state(settings):
    """Each test starts with no stream counted, no Redis failure remembered and no
    keeper thread (tests run its rounds: ``live.keeper.run_once``)."""
    from live import caps, hub

    settings.LIVE_KEEPER = False
    caps.reset()
    hub.reset()
    yield
    caps.reset()
    hub.reset()


@pytest.fixture(params=["local", "redis"])
def hub_mode(request, settings):
    """Both hubs: in-process, and Redis (the tests' own Redis database)."""
    if request.param == "redis":
        need_service(bool(django_settings.REDIS_URL), "Redis (REDIS_URL)")
        settings.LIVE_REDIS_URL = django_settings.REDIS_URL
    else:
        settings.LIVE_REDIS_URL = ""
    return request.param


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"


@pytest.fixture
def asgi_server(transactional_db):
    """The production shape in miniature: uvicorn serving config.asgi."""
    import uvicorn

    from config.asgi import application

    port = free_port()
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, lifespan="off", log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.02)
    yield Server(port)
    server.should_exit = True
    thread.join(10)
    # The server's threads keep database connections: give them back before the test
    # database is flushed (or, at the end, dropped).
    for worker in application.threads:
        worker.submit(connections.close_all).result(5)


def cookie_of(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


class Events:
    """One stream as a browser's EventSource reads it."""

    def __init__(
        self, server: Server, path: str, user=None, last_event_id=None, accept=True, headers=None
    ):
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        headers = dict(headers or {})
        if accept:
            headers["Accept"] = "text/event-stream"
        if user is not None:
            headers["Cookie"] = cookie_of(user)
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.comments = 0
        self.last_id = None

    def next(self, timeout: float = 5.0) -> dict | None:
        """The next event ({"event", "data", "id"}; "retry" and id-only blocks are
        read on the way), or None when the server ended the stream."""
        self.conn.sock.settimeout(timeout)
        fields: dict[str, str] = {}
        while True:
            try:
                line = self.response.readline()
            except TimeoutError:
                raise AssertionError(f"no event within {timeout} s") from None
            if not line:
                return None
            line = line.decode().rstrip("\n")
            if line.startswith(":"):
                self.comments += 1
                continue
            if line:
                name, _, value = line.partition(":")
                fields[name] = value.lstrip(" ")
                continue
            if "id" in fields:
                self.last_id = fields["id"]
            if "data" in fields:
                return fields
            fields = {}

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def streams(asgi_server):
    opened: list[Events] = []

    def open_stream(path, user=None, **kwargs) -> Events:
        events = Events(asgi_server, path, user, **kwargs)
        opened.append(events)
        return events

    yield open_stream
    for events in opened:
        events.close()


def wait_for(condition, seconds: float = 5.0, message: str = "timed out"):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(message)
