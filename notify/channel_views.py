"""The settings page's operations on push devices, webhooks, chat handles and game
channels, "send me a test", the service worker and one-click sign-in links.

Every change is a POST by the signed-in owner; a bad form or someone else's device
changes nothing and says why. Each answers with the settings page again.
"""

from __future__ import annotations

import datetime
import json
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.models import Game

from . import outbox, pings, push, settings_page, signin, webhooks
from .forms import (
    DeviceForm,
    GameChannelForm,
    HandlesForm,
    SubscriptionForm,
    WebhookEditForm,
    WebhookForm,
)
from .models import Notification, PushDevice, Webhook

Channel = Notification.Channel
# Enough for anyone's phones and chats; a bound keeps one move from becoming a flood of
# posts at somebody else's address.
MAX_DEVICES = 10
MAX_WEBHOOKS = 5
# One test per channel a minute: a test button must not become a way to flood a chat.
TEST_INTERVAL = datetime.timedelta(minutes=1)


def back(anchor: str):
    return redirect(reverse("settings") + f"#{anchor}")


def form_errors(request, form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


@require_GET
def service_worker(request):
    """The push service worker, from the site's root so that its scope is the whole site."""
    response = HttpResponse(
        render_to_string("notify/sw.js"), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_POST
@login_required
def subscribe(request):
    """The page's script posts the browser's subscription here (JSON)."""
    if not push.enabled():
        return JsonResponse({"error": _("Push is not set up on this site.")}, status=404)
    try:
        data = json.loads(request.body or b"{}")
        keys = data.get("keys") or {}
        fields = {
            "endpoint": data.get("endpoint"),
            "p256dh": keys.get("p256dh"),
            "auth": keys.get("auth"),
            "name": data.get("name") or "",
        }
    except (ValueError, AttributeError):
        return JsonResponse({"error": _("This is not a push subscription.")}, status=400)
    form = SubscriptionForm(fields)
    if not form.is_valid():
        return JsonResponse({"error": _("This is not a push subscription.")}, status=400)
    data = form.cleaned_data
    name = data["name"].strip() or _("Device %(n)d") % {"n": request.user.push_devices.count() + 1}
    device = PushDevice.objects.filter(endpoint=data["endpoint"]).first()
    if device is not None and device.user_id != request.user.pk:
        device.delete()  # the browser now belongs to someone else: it is theirs from here on
        device = None
    if device is None and request.user.push_devices.count() >= MAX_DEVICES:
        message = _("You have %(n)d devices already: remove one first.") % {"n": MAX_DEVICES}
        return JsonResponse({"error": message}, status=400)
    if device is None:
        device = PushDevice.objects.create(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["p256dh"],
            auth=data["auth"],
            name=name[:60],
        )
    else:
        PushDevice.objects.filter(pk=device.pk).update(p256dh=data["p256dh"], auth=data["auth"])
    return JsonResponse({"id": device.pk, "name": device.name}, status=201)


def _own_device(request, pk):
    return get_object_or_404(PushDevice, pk=pk, user=request.user)


def _own_hook(request, pk):
    return get_object_or_404(Webhook, pk=pk, user=request.user)


def _hook_anchor(hook) -> str:
    """Where a hook is listed: a game's channel or the player's own webhooks."""
    return "channels" if hook.game_id else "webhooks"


def _save_settings(request, form, anchor: str = "push"):
    """Save a device's or a hook's settings form; when what is sent changes, so may
    when the waiting messages go (quiet hours, digest)."""
    if form.is_valid():
        form.save()
        outbox.reschedule(request.user)
        messages.success(request, _("Your settings were saved."))
    else:
        form_errors(request, form)
    return back(anchor)


@require_POST
@login_required
def device_edit(request, pk):
    return _save_settings(request, DeviceForm(request.POST, instance=_own_device(request, pk)))


@require_POST
@login_required
def device_remove(request, pk):
    _own_device(request, pk).delete()
    messages.success(request, _("The device gets no more pushes."))
    return back("push")


@require_POST
@login_required
def webhook_add(request):
    form = WebhookForm(request.POST)
    if request.user.webhooks.filter(game=None).count() >= MAX_WEBHOOKS:
        messages.error(
            request, _("You have %(n)d webhooks already: remove one first.") % {"n": MAX_WEBHOOKS}
        )
    elif form.is_valid():
        hook = form.save(commit=False)
        hook.user, hook.secret = request.user, webhooks.new_secret()
        hook.save()
        messages.success(request, _("The webhook was added. Send it a test."))
    else:
        form_errors(request, form)
    return back("webhooks")


@require_POST
@login_required
def webhook_edit(request, pk):
    hook = _own_hook(request, pk)
    return _save_settings(request, WebhookEditForm(request.POST, instance=hook), _hook_anchor(hook))


@require_POST
@login_required
def webhook_remove(request, pk):
    hook = _own_hook(request, pk)
    anchor = _hook_anchor(hook)
    hook.delete()
    messages.success(request, _("The webhook was removed."))
    return back(anchor)


@require_POST
@login_required
def webhook_enable(request, pk):
    hook = _own_hook(request, pk)
    Webhook.objects.filter(pk=hook.pk).update(disabled_at=None, failures=0, last_error="")
    messages.success(request, _("The webhook is on again."))
    return back(_hook_anchor(hook))


@require_POST
@login_required
def game_channel_add(request):
    form = GameChannelForm(request.POST, user=request.user)
    if form.is_valid():
        hook = form.save(commit=False)
        hook.user, hook.secret = request.user, webhooks.new_secret()
        hook.events = [pings.EVENT_OF[k] for k in pings.GAME_CHANNEL_KINDS]
        hook.quiet_hours = hook.digest = False  # a group's channel, not one person's
        hook.save()
        messages.success(request, _("The game's channel was set up. Send it a test."))
    else:
        form_errors(request, form)
    return back("channels")


@require_POST
@login_required
def handles(request):
    form = HandlesForm(request.POST)
    if form.is_valid():
        form.save(request.user)
        messages.success(request, _("Your settings were saved."))
    else:
        form_errors(request, form)
    return back("handles")


@require_POST
@login_required
def send_test(request, channel, pk=None):
    """ "Send me a test" on one channel: goes at once, whatever the quiet hours."""
    user = request.user
    if channel == Channel.EMAIL:
        if not user.email:
            raise Http404
        endpoint, anchor = None, "test-email"
    elif channel == Channel.PUSH:
        if not push.enabled():
            raise Http404
        endpoint, anchor = _own_device(request, pk), "push"
    elif channel == Channel.WEBHOOK:
        endpoint = _own_hook(request, pk)
        if endpoint.disabled_at is not None:
            messages.error(request, _("Switch the webhook on again first."))
            return back("webhooks")
        anchor = "channels" if endpoint.game_id else "webhooks"
    else:
        raise Http404
    recent = settings_page.last_test(user, channel, endpoint)
    if recent is not None and recent.created_at > timezone.now() - TEST_INTERVAL:
        messages.error(request, _("You asked for a test a moment ago. Wait a minute."))
        return back(anchor)
    pings.queue_test(user, channel, endpoint)
    messages.success(request, _("A test message is on its way."))
    return back(anchor)


@never_cache
@require_GET
def signin_link(request, token):
    """A one-click link from a turn mail or push: opens its game signed in, once."""
    game_id = signin.game_of(token)
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    target = game.get_absolute_url() if game else reverse("my_games")
    data = signin.read(token)
    if data and request.user.is_authenticated and request.user.pk == data["u"]:
        return redirect(target)  # signed in already: the link stays unused
    user = signin.redeem(token)
    if user is not None and game is not None:
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        return redirect(target)
    messages.info(request, _("This sign-in link has expired or was used already. Please sign in."))
    return redirect(reverse("account_login") + "?" + urlencode({"next": target}))
