"""Real receivers on 127.0.0.1 for the site's pushes and webhook posts.

``PushReceiver`` plays a browser's push service and the browser at once: it holds a
subscription's private key and auth secret, checks the VAPID token of each message
(RFC 8292: ES256 over the JWT, ``aud`` the receiver's origin, ``exp`` within a day,
``k`` the site's public key), and decrypts the body (RFC 8291, aes128gcm) with
``http_ece``. ``HookReceiver`` takes webhook posts and checks the signature of the
generic JSON ones. Both count what they accept: a request must arrive whole.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    data: dict | None = None


@dataclass
class Receiver:
    """A threaded HTTP server on 127.0.0.1 (any free port) that records POSTs."""

    host: str = "127.0.0.1"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    # Hold the next request here, after it arrived whole and before answering it.
    hold: threading.Event | None = None
    holding: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                if len(body) < length:
                    return  # the sender went away mid-request: nothing arrived
                try:
                    item = receiver.accept(self.path, dict(self.headers.items()), body)
                except AssertionError as error:
                    receiver.refused.append(str(error))
                    self.send_response(400)
                    self.end_headers()
                    return
                receiver.received.append(item)
                if receiver.hold is not None:
                    hold, receiver.hold = receiver.hold, None
                    receiver.holding.set()
                    hold.wait(30)
                try:
                    self.send_response(receiver.status)
                    for name, value in receiver.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", "18")
                    self.end_headers()
                    self.wfile.write(b"secret-answer-body")
                except OSError:
                    pass  # the sender was killed while we held its request

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def accept(self, path: str, headers: dict[str, str], body: bytes) -> Received:
        return Received(path, headers, body)

    def wait_for(self, count: int, seconds: float = 15) -> None:
        end = time.monotonic() + seconds
        while len(self.received) < count and time.monotonic() < end:
            time.sleep(0.05)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class PushReceiver(Receiver):
    """A push service that decrypts what it gets as the subscribed browser would."""

    def __init__(self, vapid_public_key: str, **kwargs) -> None:
        self.vapid_public_key = vapid_public_key
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.status_of: dict[str, int] = {}
        super().__init__(**kwargs)

    def subscription(self, name: str = "phone") -> dict:
        """A new subscription (what ``PushSubscription.toJSON()`` gives a page)."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self.keys[name] = (key, auth)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.url}/push/{name}",
            "keys": {"p256dh": b64(public), "auth": b64(auth)},
        }

    def accept(self, path: str, headers: dict[str, str], body: bytes) -> Received:
        headers = {k.lower(): v for k, v in headers.items()}
        name = path.rsplit("/", 1)[-1]
        assert name in self.keys, f"no subscription {name}"
        self.check_vapid(headers.get("authorization", ""))
        assert headers.get("content-encoding") == "aes128gcm", "not aes128gcm"
        assert int(headers.get("ttl", "-1")) >= 0, "no TTL"
        key, auth = self.keys[name]
        plain = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
        return Received(path, headers, body, json.loads(plain))

    def check_vapid(self, header: str) -> None:
        scheme, _, rest = header.partition(" ")
        assert scheme == "vapid", f"not a VAPID authorization: {scheme!r}"
        parts = dict(p.strip().split("=", 1) for p in rest.split(","))
        assert parts.get("k") == self.vapid_public_key, "not the site's VAPID key"
        head, claims, sig = parts["t"].split(".")
        assert json.loads(b64decode(head)) == {"typ": "JWT", "alg": "ES256"}, "not ES256"
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64decode(parts["k"]))
        raw = b64decode(sig)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature as error:
            raise AssertionError("bad VAPID signature") from error
        data = json.loads(b64decode(claims))
        assert data["aud"] == self.url, f"wrong audience {data['aud']}"
        assert time.time() < data["exp"] <= time.time() + 24 * 3600, "bad expiry"
        assert data["sub"].startswith(("mailto:", "https:")), "no subject"

    def payloads(self, name: str | None = None) -> list[dict]:
        return [r.data for r in self.received if name is None or r.path.endswith(f"/{name}")]


class HookReceiver(Receiver):
    """A chat service's webhook, or a generic JSON receiver that checks signatures."""

    def __init__(self, secret: str = "", **kwargs) -> None:
        self.secret = secret
        super().__init__(**kwargs)

    def accept(self, path: str, headers: dict[str, str], body: bytes) -> Received:
        headers = {k.lower(): v for k, v in headers.items()}
        if self.secret:
            stamp = headers.get("x-pbw-timestamp", "")
            assert abs(time.time() - int(stamp or 0)) < 300, "old or no timestamp"
            # Written out here, not taken from the site: the documented recipe.
            mac = hmac.new(self.secret.encode(), stamp.encode() + b"." + body, hashlib.sha256)
            expected = "sha256=" + mac.hexdigest()
            assert headers.get("x-pbw-signature") == expected, "bad signature"
        return Received(path, headers, body, json.loads(body))

    def bodies(self) -> list[dict]:
        return [r.data for r in self.received]
