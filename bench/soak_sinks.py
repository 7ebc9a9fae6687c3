"""The soak's receivers on 127.0.0.1 (``bench/soak.py``): an SMTP sink and an HTTP
receiver for pushes and webhook posts, each recording every message that reached it
whole, and each able to misbehave on command.

- ``SmtpSink``: a small SMTP server (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS,
  no AUTH). Modes: ``accept``; ``hang``: takes the whole message, then never answers
  the final dot (the message is recorded, as one that reached the server: the window
  after acceptance of issue 40 item 3); ``stop()`` / ``start()``, which close and
  reopen the listening socket on the same port (connections are refused meanwhile); and
  ``hold``: the next message is held unanswered until the soak has killed its sender.
- ``HttpSink``: ``POST /push/<user>`` (a push service: the body is decrypted, RFC 8291,
  with the subscription's keys made by ``subscription``) and ``POST /hook/<user>`` (a
  signed JSON webhook). Modes: ``ok`` (200), ``500``, ``429`` (with ``Retry-After``)
  and ``slow`` (answers 200 after ``slow_seconds``, longer than the site's timeout). A
  post answered 2xx, even too late for its sender, is one that arrived; a post answered
  500 or 429 was refused and is recorded as such.

Each record carries the id a receiver could fold repeats with: the mail's
``Message-ID``; a post's delivery header (any of ``ID_HEADERS``), else an id in its body
(``ID_FIELDS``).
"""

from __future__ import annotations

import base64
import email
import email.policy
import email.utils
import json
import os
import socket
import socketserver
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

# Where a site may name a post's delivery (today X-PBW-Delivery on signed JSON hooks).
ID_HEADERS = ("x-pbw-delivery", "x-delivery-id", "x-pbw-message-id", "idempotency-key", "x-id")
ID_FIELDS = ("delivery", "delivery_id", "id", "message_id")


@dataclass
class Arrival:
    channel: str  # "email", "push", "webhook"
    user: str  # the recipient's user name (mail: the address's local part)
    title: str  # the mail's subject, the push's or the post's title
    ident: str  # Message-ID or delivery id ("" if none)
    at: float  # time.time() when it arrived whole
    accepted: bool = True  # False: refused (500/429) by the receiver's mode
    mode: str = ""  # the receiver's mode when it arrived
    headers: dict[str, str] = field(default_factory=dict)


class Log:
    """What arrived, shared by the sinks and read by the soak's players."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: list[Arrival] = []

    def add(self, item: Arrival) -> None:
        with self.lock:
            self.items.append(item)

    def snapshot(self) -> list[Arrival]:
        with self.lock:
            return list(self.items)


# --------------------------------------------------------------------------- SMTP


class _SmtpHandler(socketserver.StreamRequestHandler):
    timeout = 120

    def reply(self, line: str) -> None:
        self.wfile.write((line + "\r\n").encode())
        self.wfile.flush()

    def handle(self) -> None:
        sink: SmtpSink = self.server.sink  # type: ignore[attr-defined]
        try:
            self.reply("220 soak-sink ESMTP")
            while True:
                line = self.rfile.readline(65536)
                if not line:
                    return
                verb = line.decode(errors="replace").strip().split(" ", 1)[0].upper()
                if verb == "EHLO":
                    self.wfile.write(b"250-soak-sink\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
                    self.wfile.flush()
                elif verb in ("HELO", "MAIL", "RCPT", "RSET", "NOOP"):
                    self.reply("250 OK")
                elif verb == "DATA":
                    self.reply("354 go ahead")
                    data = self.read_data()
                    if data is None:
                        return
                    mode = sink.mode
                    sink.record(data, mode)
                    hold, sink.hold = sink.hold, None
                    if hold is not None:
                        # Taken whole and not yet answered: the soak kills the sender now.
                        sink.holding.set()
                        hold.wait(60)
                    if mode == "hang":
                        # The message is in; the answer never comes (until the sender
                        # gives up and goes, or the sink is told to behave again).
                        while sink.mode == "hang" and not sink.closing:
                            time.sleep(0.2)
                        return
                    self.reply("250 queued")
                elif verb == "QUIT":
                    self.reply("221 bye")
                    return
                else:
                    self.reply("502 not implemented")
        except OSError:
            return

    def read_data(self) -> bytes | None:
        lines = []
        while True:
            line = self.rfile.readline(1 << 20)
            if not line:
                return None
            if line in (b".\r\n", b".\n"):
                return b"".join(lines)
            lines.append(line[1:] if line.startswith(b"..") else line)


class _Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


class SmtpSink:
    def __init__(self, port: int, log: Log) -> None:
        self.port, self.log = port, log
        self.mode = "accept"
        self.closing = False
        # Set: the next message is held after it arrived whole, before the answer, until
        # the event is set (``holding`` says one is held).
        self.hold: threading.Event | None = None
        self.holding = threading.Event()
        self.server: _Server | None = None
        self.start()

    def start(self) -> None:
        if self.server is not None:
            return
        self.closing = False
        self.server = _Server(("127.0.0.1", self.port), _SmtpHandler)
        self.port = self.server.server_address[1]  # port 0: any free one, kept on restart
        self.server.sink = self  # type: ignore[attr-defined]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is None:
            return
        self.server.shutdown()
        self.server.server_close()
        self.server = None

    def close(self) -> None:
        self.closing = True
        self.stop()

    def record(self, data: bytes, mode: str) -> None:
        message = email.message_from_bytes(data, policy=email.policy.default)
        to = str(message.get("To", ""))
        address = email.utils.parseaddr(to)[1]
        subject = " ".join(str(message.get("Subject", "")).split())
        headers = {"message-id": str(message.get("Message-ID", "")).strip()}
        self.log.add(
            Arrival(
                "email",
                address.split("@")[0],
                subject,
                headers["message-id"],
                time.time(),
                True,
                mode,
                headers,
            )
        )


# --------------------------------------------------------------------------- HTTP


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class HttpSink:
    def __init__(self, port: int, log: Log, slow_seconds: float) -> None:
        self.port, self.log, self.slow_seconds = port, log, slow_seconds
        self.mode = "ok"
        self.retry_after = 5
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.errors: list[str] = []
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                if len(body) < length:
                    return  # cut off: nothing arrived
                mode = sink.mode
                status = {"500": 500, "429": 429}.get(mode, 200)
                try:
                    sink.record(self.path, dict(self.headers.items()), body, mode, status)
                except Exception as error:  # a message we cannot read is a finding
                    sink.errors.append(f"{self.path}: {type(error).__name__}: {error}")
                if mode == "slow":
                    time.sleep(sink.slow_seconds)
                try:
                    self.send_response(status)
                    if status == 429:
                        self.send_header("Retry-After", str(sink.retry_after))
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                except OSError:
                    pass  # the sender gave up waiting

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def subscription(self, user: str) -> dict:
        """A browser's push subscription for ``user`` (endpoint and keys)."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self.keys[user] = (key, auth)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.url(f"/push/{user}"), "p256dh": _b64(public), "auth": _b64(auth)}

    def record(self, path: str, headers: dict, body: bytes, mode: str, status: int) -> None:
        headers = {k.lower(): v for k, v in headers.items()}
        kind, _, user = path.strip("/").partition("/")
        if kind == "push":
            key, auth = self.keys[user]
            plain = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
            data = json.loads(plain)
            channel = "push"
        else:
            data = json.loads(body)
            channel = "webhook"
        ident = next((headers[h] for h in ID_HEADERS if headers.get(h)), "")
        if not ident and isinstance(data, dict):
            ident = next((str(data[f]) for f in ID_FIELDS if data.get(f) not in (None, "")), "")
        title = " ".join(str(data.get("title", "")).split()) if isinstance(data, dict) else ""
        self.log.add(
            Arrival(channel, user, title, ident, time.time(), 200 <= status < 300, mode, headers)
        )

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
