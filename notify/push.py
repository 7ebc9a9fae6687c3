"""Web push (W3C Push API): the site's VAPID keys (RFC 8292) and one encrypted message
(RFC 8291, aes128gcm) to one device's push service.

pywebpush (the web-push-libs project, with py_vapid and http_ece) does the
cryptography: the ECDH key agreement with the device's key and auth secret, the
encryption, and the signed VAPID token. The request itself goes through
``notify.netsafe`` like a webhook's, since the endpoint is a URL a browser gave us
and must not reach the site's own network. Without keys in the environment the
site offers no push at all.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPusher

from . import netsafe, outbox
from .models import PushDevice

# How long a push service keeps a message for a device that is offline (seconds).
TTL = 24 * 60 * 60
# Statuses after which the subscription is gone for good (RFC 8030 §7.3 and practice).
GONE = {404, 410}


class Gone(Exception):
    """The push service no longer knows the device: it has been removed."""


class Rejected(Exception):
    """The push service refused the message for good (not worth retrying)."""


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_keys() -> tuple[str, str]:
    """A fresh VAPID pair: (public key for the browser, private key), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64(public), b64(private)


def vapid_headers(endpoint: str, now: float | None = None) -> dict[str, str]:
    """``Authorization: vapid t=<JWT>, k=<public key>`` for ``endpoint``'s push service."""
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int((now or time.time()) + 12 * 60 * 60),
        "sub": settings.VAPID_SUBJECT,
    }
    return Vapid02.from_raw(settings.VAPID_PRIVATE_KEY.encode()).sign(claims)


@dataclass
class PushMessage:
    """One notification for one device, sent with ``send()``."""

    device: PushDevice
    payload: dict
    topic: str = ""

    def send(self, on_connected=None) -> None:
        info = {
            "endpoint": self.device.endpoint,
            "keys": {"p256dh": self.device.p256dh, "auth": self.device.auth},
        }
        data = json.dumps(self.payload, ensure_ascii=False).encode()
        body = WebPusher(info).encode(data, "aes128gcm")["body"]
        headers = {
            **vapid_headers(self.device.endpoint),
            "TTL": str(TTL),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Urgency": "normal",
        }
        if self.topic:
            # A message the service still holds for the device is replaced by a newer one
            # of the same topic (RFC 8030 §5.4), so a repeat never stacks up.
            headers["Topic"] = self.topic
        try:
            answer = netsafe.post(self.device.endpoint, body, headers, on_connected)
        except netsafe.Refused as error:
            raise Rejected(str(error)) from error
        if answer.status in GONE:
            self.device.delete()
            raise Gone(f"push service answered {answer.status}")
        if answer.status in (429, 503):
            until = outbox.retry_after(answer.headers, timezone.now())
            raise outbox.RetryLater(f"push service answered {answer.status}", until)
        if answer.status >= 500:
            raise OSError(f"push service answered {answer.status}")
        if not 200 <= answer.status < 300:
            raise Rejected(f"push service answered {answer.status}")
