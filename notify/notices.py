"""Messages about the channels themselves: "send me a test" on each channel, the
mail that tells a player their webhook was switched off, and a game channel's posts.

Rendered inside the recipient's language and time zone (``compose`` sets them).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from . import pings
from .emails import absolute, make_message
from .models import Notification
from .push import PushMessage
from .webhooks import Person, Ping, WebhookPost

Channel = Notification.Channel


def settings_url() -> str:
    return absolute(reverse("settings"))


def test(row: Notification):
    """A test on the row's channel: it says which channel it came through."""
    title = _("Test message from Play by Web")
    if row.channel == Channel.EMAIL:
        context = {"user": row.user, "settings_url": settings_url()}
        return make_message("test", row.address, context)
    endpoint = pings.endpoint_of(row)
    if row.channel == Channel.PUSH:
        body = _("Pushes to “%(device)s” work.") % {"device": endpoint.name}
        payload = {"title": title, "body": body, "url": settings_url(), "tag": "test"}
        return PushMessage(endpoint, payload)
    if endpoint.game_id:
        line = _("This channel will hear of the turns of %(game)s.") % {"game": endpoint.game.named}
    else:
        line = _("Your %(service)s webhook works.") % {"service": endpoint.get_service_display()}
    ping = Ping(event="test", title=title, lines=[line], url=settings_url())
    return WebhookPost(endpoint, ping, delivery=str(row.delivery_id))


def hook_disabled(row: Notification):
    """The one mail about a webhook switched off after failing too often."""
    hook = row.webhook
    context = {
        "user": row.user,
        "service": hook.get_service_display() if hook else _("webhook"),
        # The host only: the rest of a webhook's address is its key.
        "host": urlsplit(hook.url).hostname if hook else "",
        "game": hook.game if hook else None,
        "failures": settings.WEBHOOK_MAX_FAILURES,
        "settings_url": settings_url(),
    }
    return make_message("hook_disabled", row.address, context)


def channel_post(row: Notification, to_move: list, lines: list[str], context: dict):
    """A game channel's post: who is to move (mentioned by their handles), the start,
    or the end; ``lines`` are what every seat may see."""
    hook = pings.endpoint_of(row)
    game = row.game
    found = pings.handles([s.user for s in to_move], hook.service)
    people = [Person(s.user.name, found.get(s.user_id, "")) for s in to_move]
    context = {"kind": row.kind, "game": game, "to_move": [p.name for p in people], **context}
    title = " ".join(render_to_string("notify/channel_title.txt", context).split())
    ping = Ping(
        event=row.kind,
        title=title,
        lines=lines,
        url=settings.SITE_URL + game.get_absolute_url(),
        game=pings.game_facts(game),
        to_move=people,
    )
    return WebhookPost(hook, ping, delivery=str(row.delivery_id))
