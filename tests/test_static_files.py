"""Static files under ASGI (``make run``, production): served whole, with no warning.

Django's ASGI handler sends a body with ``async for``; a synchronous file iterator
made it warn "StreamingHttpResponse must consume synchronous iterators" on every file.
"""

import asyncio
import warnings
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler

LIVE_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "live.js"


def asgi_request(method: str, path: str) -> tuple[dict, bytes, list]:
    """One request through a fresh ASGI handler: the start message, the body, the warnings."""
    handler = ASGIHandler()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
    }
    messages = []
    requests = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        if requests:
            return requests.pop()
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        messages.append(message)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async_to_sync(handler)(scope, receive, send)
    start = messages[0]
    body = b"".join(m.get("body", b"") for m in messages[1:])
    return start, body, [str(w.message) for w in caught]


@pytest.fixture
def static_from_sources(settings):
    # Tests have no collected STATIC_ROOT: whitenoise finds the files in static/.
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.mark.django_db
def test_a_static_file_is_served_whole_under_asgi_without_a_warning(static_from_sources):
    start, body, caught = asgi_request("GET", "/static/js/live.js")

    assert start["status"] == 200
    assert body == LIVE_JS.read_bytes()
    headers = {name.lower(): value for name, value in start["headers"]}
    assert headers[b"content-length"] == str(len(body)).encode()
    assert not [w for w in caught if "StreamingHttpResponse" in w]


@pytest.mark.django_db
def test_a_head_request_for_a_static_file_has_no_body_and_no_warning(static_from_sources):
    start, body, caught = asgi_request("HEAD", "/static/js/live.js")

    assert start["status"] == 200
    assert body == b""
    assert not [w for w in caught if "StreamingHttpResponse" in w]


def test_a_static_file_is_served_under_wsgi_too(client, static_from_sources):
    response = client.get("/static/js/live.js")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == LIVE_JS.read_bytes()
