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
import html
import json
import re
import secrets
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from . import escape, netsafe, outbox
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


# How each service's text is made inert (escape), and the service's form of a handle
# that the site mentions on purpose (the forms check a handle against it when saved).
QUOTE = {
    Service.SLACK: escape.slack,
    Service.DISCORD: escape.discord,
    Service.MATRIX: escape.matrix_plain,
}
HANDLE = {
    Service.SLACK: re.compile(r"[UW][A-Z0-9]+"),
    Service.DISCORD: re.compile(r"\d+"),
    Service.MATRIX: re.compile(r"@[a-z0-9._=/+-]+:[A-Za-z0-9.-]+(:\d+)?"),
}


def handle_of(service: str, person: Person) -> str:
    """The person's handle if it is an id the service mentions, else ""."""
    handle = person.handle.strip()
    form = HANDLE.get(service)
    return handle if form is not None and form.fullmatch(handle) else ""


def mention(service: str, person: Person, quote=None) -> str:
    """The player's mention by their configured handle, or their name made inert."""
    quote = quote or QUOTE.get(service, str)
    handle = handle_of(service, person)
    if not handle:
        return quote(person.name)
    if service == Service.MATRIX:
        return html.escape(handle) if quote is escape.matrix_html else handle
    return f"<@{handle}>"


def lines(ping: Ping, service: str, quote=None) -> list[str]:
    """The post's lines above its link: every text players could have written passed
    through ``quote`` (the service's escape), the mentions the site means left alone."""
    quote = quote or QUOTE.get(service, str)
    head = [quote(ping.title)]
    if ping.to_move:
        head.append(", ".join(mention(service, p, quote) for p in ping.to_move))
    return [*head, *(quote(line) for line in ping.lines)]


def text(ping: Ping, service: str) -> str:
    url = escape.slack(ping.url) if service == Service.SLACK else ping.url
    return "\n".join([*lines(ping, service), url])


def matrix_html(ping: Ping) -> str:
    """The Matrix message's HTML body (``formatted_body``): escaped text, one line each."""
    link = escape.matrix_html(ping.url)
    html_lines = lines(ping, Service.MATRIX, escape.matrix_html)
    return "<br>".join([*html_lines, f'<a href="{link}">{link}</a>'])


def mentioned(service: str, ping: Ping) -> list[str]:
    return [h for h in (handle_of(service, p) for p in ping.to_move) if h]


def body(ping: Ping, service: str, delivery: str) -> dict:
    if service == Service.DISCORD:
        # Only the players to move are pinged: never @everyone, @here or a role.
        content = text(ping, service)[:2000]
        return {
            "content": content,
            "allowed_mentions": {"parse": [], "users": mentioned(service, ping)},
        }
    if service == Service.SLACK:
        return {"text": text(ping, service)}
    if service == Service.MATRIX:
        # Hookshot posts "text" as the body and "html" as the formatted body (it would
        # render "text" as markdown without it); "m.mentions" names the only user meant.
        users = mentioned(service, ping)
        return {
            "text": text(ping, service),
            "html": matrix_html(ping),
            "username": "Play by Web",
            "m.mentions": {"user_ids": users} if users else {},
        }
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
