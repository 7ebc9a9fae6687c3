"""What the settings page (``accounts``) shows of a player's channels: push devices,
webhooks, chat handles, game channels, and how their last test went."""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone

from . import push
from .forms import (
    DeviceForm,
    GameChannelForm,
    HandlesForm,
    WebhookEditForm,
    WebhookForm,
    channel_games,
    handles_initial,
)
from .models import Notification

Channel = Notification.Channel
# A test older than this is no longer news on the settings page.
TEST_SHOWN = datetime.timedelta(days=1)


def last_test(user, channel: str, endpoint=None) -> Notification | None:
    rows = Notification.objects.filter(
        user=user,
        kind=Notification.Kind.TEST,
        channel=channel,
        created_at__gte=timezone.now() - TEST_SHOWN,
    )
    if channel == Channel.PUSH:
        rows = rows.filter(device=endpoint)
    elif channel == Channel.WEBHOOK:
        rows = rows.filter(webhook=endpoint)
    return rows.order_by("-pk").first()


def _hook(hook) -> dict:
    return {
        "hook": hook,
        "host": urlsplit(hook.url).hostname,
        "form": WebhookEditForm(instance=hook, auto_id=f"hook{hook.pk}_%s"),
        "test": last_test(hook.user, Channel.WEBHOOK, hook),
    }


def context(user) -> dict:
    hooks = list(user.webhooks.select_related("game"))
    return {
        "push_enabled": push.enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "devices": [
            {
                "device": d,
                "form": DeviceForm(instance=d, auto_id=f"device{d.pk}_%s"),
                "test": last_test(user, Channel.PUSH, d),
            }
            for d in user.push_devices.all()
        ],
        "webhooks": [_hook(h) for h in hooks if h.game_id is None],
        "game_channels": [_hook(h) for h in hooks if h.game_id is not None],
        "switched_off": [h for h in hooks if h.disabled_at is not None],
        "webhook_form": WebhookForm(auto_id="newhook_%s"),
        "channel_form": GameChannelForm(user=user, auto_id="channel_%s"),
        "has_channel_games": channel_games(user).exists(),
        "handles_form": HandlesForm(initial=handles_initial(user), auto_id="handle_%s"),
        "email_test": last_test(user, Channel.EMAIL),
        "max_failures": settings.WEBHOOK_MAX_FAILURES,
    }
