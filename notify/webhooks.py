"""Posting a message to a webhook: Discord, Slack, Matrix (hookshot) or signed JSON.

The generic JSON hook is signed (docs/webhooks.md): ``X-PBW-Timestamp`` holds the
Unix time of sending, ``X-PBW-Signature`` is ``sha256=`` and the hex HMAC-SHA256,
keyed with the hook's secret, of ``<timestamp>.<body>``. ``X-PBW-Delivery`` (on every
service's post, and the JSON body's ``id``) names the message, the same on a retry, so
a receiver can drop a repeat. A 429 or 503 with ``Retry-After`` times the next attempt.

A hook that fails ``WEBHOOK_MAX_FAILURES`` times in a row is switched off: the
settings page says so, and its owner gets one e-mail. Any answer but a 2xx is a
failure; the answer's body is never read into anything a person sees.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from . import netsafe, outbox
from .models import Notification, Webhook

Service = Webhook.Service
USER_AGENT = "PlayByWeb-Webhook/1"
# Answers that mean "too busy now": their Retry-After, if any, times the next attempt.
BUSY = {429, 503}


def new_secret() -> str:
    return secrets.token_hex(32)


def signature(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


@dataclass
class Person:
    """A player the message is about, as the chat service can name them."""

    name: str
    handle: str = ""


@dataclass
class Ping:
    """What a push or a webhook says; built from the same view as the mail."""

    event: str
    title: str
    lines: list[str]
    url: str
    game: dict | None = None
    to_move: list[Person] = field(default_factory=list)


def mention(service: str, person: Person) -> str:
    """The player's name, and a mention the service turns into a ping where it can."""
    handle = person.handle.strip()
    if not handle:
        return person.name
    if service == Service.DISCORD:
        return f"<@{handle}>" if handle.isdigit() else f"@{handle.lstrip('@')}"
    if service == Service.SLACK:
        return f"<@{handle}>" if re.fullmatch(r"[UW][A-Z0-9]+", handle) else f"@{handle}"
    return handle  # Matrix: the user id (@name:server), which clients highlight


def text(ping: Ping, service: str) -> str:
    lines = [ping.title]
    if ping.to_move:
        lines.append(", ".join(mention(service, p) for p in ping.to_move))
    return "\n".join([*lines, *ping.lines, ping.url])


def body(ping: Ping, service: str, delivery: str) -> dict:
    if service == Service.DISCORD:
        # Only the players to move are pinged, never @everyone from a game's title.
        users = [p.handle for p in ping.to_move if p.handle.isdigit()]
        return {"content": text(ping, service)[:2000], "allowed_mentions": {"users": users}}
    if service == Service.SLACK:
        return {"text": text(ping, service)}
    if service == Service.MATRIX:
        return {"text": text(ping, service), "username": "Play by Web"}
    return {
        "id": delivery,
        "event": ping.event,
        "title": ping.title,
        "lines": ping.lines,
        "url": ping.url,
        "game": ping.game,
        "to_move": [{"name": p.name, "handle": p.handle} for p in ping.to_move],
        "text": text(ping, service),
    }


@dataclass
class WebhookPost:
    """One post to one hook, sent with ``send()``; counts the hook's failures."""

    hook: Webhook
    ping: Ping
    delivery: str

    def request(self, now: float | None = None) -> tuple[bytes, dict[str, str]]:
        data = json.dumps(body(self.ping, self.hook.service, self.delivery), ensure_ascii=False)
        payload = data.encode()
        # Every post names its message, the same on a retry: a receiver can drop a repeat.
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-PBW-Delivery": self.delivery,
        }
        if self.hook.service == Service.JSON:
            stamp = str(int(now or time.time()))
            headers["X-PBW-Timestamp"] = stamp
            headers["X-PBW-Signature"] = signature(self.hook.secret, stamp, payload)
        return payload, headers

    def send(self, on_connected=None) -> None:
        payload, headers = self.request()
        try:
            answer = netsafe.post(self.hook.url, payload, headers, on_connected)
        except (netsafe.Refused, OSError) as error:
            failed(self.hook, str(error) or type(error).__name__)
            raise
        if not 200 <= answer.status < 300:
            failed(self.hook, f"answered {answer.status}")
            if answer.status in BUSY:
                until = outbox.retry_after(answer.headers, timezone.now())
                raise outbox.RetryLater(f"webhook answered {answer.status}", until)
            raise OSError(f"webhook answered {answer.status}")
        Webhook.objects.filter(pk=self.hook.pk).update(failures=0, last_error="")


def failed(hook: Webhook, error: str) -> None:
    """Count a failure; the one that reaches the limit switches the hook off."""
    Webhook.objects.filter(pk=hook.pk).update(failures=F("failures") + 1, last_error=error[:200])
    limit = settings.WEBHOOK_MAX_FAILURES
    now = timezone.now()
    off = Webhook.objects.filter(pk=hook.pk, disabled_at=None, failures__gte=limit)
    if off.update(disabled_at=now) == 1 and hook.user.email:
        # One mail per switching off (the key holds the moment), through the outbox.
        outbox.queue(
            kind=Notification.Kind.HOOK_DISABLED,
            address=hook.user.email,
            user=hook.user,
            game=hook.game,
            dedupe_key=f"hook_disabled:{hook.pk}:{int(now.timestamp())}",
        )
