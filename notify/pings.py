"""Pushes and webhook posts in the outbox: which rows an event writes for a player's
devices and webhooks (and a game's channel), and what a row says when it goes.

Each device and each webhook is a channel of its own: its own outbox row per
message (the dedupe key starts with the channel and the endpoint), its own choice of
events, quiet hours and digest, its own retries. What a ping says comes from the
same context as the mail, and its lines about the game from the spectator's view:
a push shows on a locked phone and a webhook posts to a channel others read, so it
carries only what every seat may see.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone

from . import outbox, push, signin
from .models import Events, Handle, Notification, PushDevice, Webhook
from .push import PushMessage
from .webhooks import Person, Ping, WebhookPost

Kind = Notification.Kind
Channel = Notification.Channel

# Which choice of events on a device or webhook covers each kind of message.
EVENT_OF = {
    Kind.TURN: Events.TURN,
    Kind.DIGEST: Events.TURN,
    Kind.REMINDER: Events.REMINDER,
    Kind.LAST_WARNING: Events.REMINDER,
    Kind.GAME_STARTED: Events.GAME,
    Kind.GAME_FINISHED: Events.GAME,
    Kind.STOOD_IN: Events.GAME,
    Kind.SEAT_OPENED: Events.GAME,
    Kind.CANCEL_ASKED: Events.GAME,
    Kind.REMATCH_OFFERED: Events.GAME,
    Kind.PAUSE_ASKED: Events.GAME,
    Kind.RESUME_ASKED: Events.GAME,
    Kind.TAKE_BACK_ASKED: Events.GAME,
    Kind.INVITED: Events.INVITED,
    Kind.MENTIONED: Events.MENTION,
}
# What a game's channel posts: its turns, and its start and end.
GAME_CHANNEL_KINDS = {Kind.TURN, Kind.GAME_STARTED, Kind.GAME_FINISHED}
# Messages about a turn: their links may sign the player in.
TURN_KINDS = {Kind.TURN, Kind.REMINDER, Kind.LAST_WARNING, Kind.GAME_STARTED}


def devices(user):
    if not push.enabled():
        return PushDevice.objects.none()
    return user.push_devices.all()


def own_hooks(user):
    return user.webhooks.filter(game=None, disabled_at=None)


def endpoints(user, kind: str, known: list | None = None) -> list[tuple[str, PushDevice | Webhook]]:
    """(channel, endpoint) of every device and own webhook of ``user`` that wants ``kind``
    (out of ``known``, the user's endpoints read before, if given)."""
    event = EVENT_OF.get(kind)
    if event is None or not user.is_active or user.is_bot:
        return []
    if known is None:
        known = [(Channel.PUSH, d) for d in devices(user)]
        known += [(Channel.WEBHOOK, h) for h in own_hooks(user)]
    return [(channel, e) for channel, e in known if event in e.events]


def endpoints_of_turn(game, users) -> tuple[dict[int, list], Webhook | None]:
    """Everything a hand-over may post to, in one query (two with push): the devices
    and own webhooks of the players to move, by user id, and the game's channel."""
    found: dict[int, list] = {user.pk: [] for user in users}
    if push.enabled():
        for device in PushDevice.objects.filter(user__in=found):
            found[device.user_id].append((Channel.PUSH, device))
    channel = None
    hooks = Webhook.objects.filter(disabled_at=None).filter(
        Q(game=game) | Q(game=None, user__in=found)
    )
    for hook in hooks:
        if hook.game_id is not None:
            channel = hook
        else:
            found[hook.user_id].append((Channel.WEBHOOK, hook))
    return found, channel


def _target(channel: str, endpoint) -> dict:
    if channel == Channel.PUSH:
        return {"channel": channel, "device": endpoint}
    return {"channel": channel, "webhook": endpoint}


def prefix(channel: str, endpoint) -> str:
    return f"{channel}:{endpoint.pk}"


def queue_for(
    player,
    kind: str,
    key: str,
    *,
    now: datetime.datetime | None = None,
    urgent_before: datetime.datetime | None = None,
    known: list | None = None,
    **row,
) -> int:
    """Write ``kind``'s rows for ``player``'s devices and webhooks; ``key`` is the mail's
    dedupe key. A message held by quiet hours past ``urgent_before`` goes now."""
    now = now or timezone.now()
    user = row.pop("user", player)
    written = 0
    for channel, endpoint in endpoints(user, kind, known):
        target = {**_target(channel, endpoint), **row, "user": user}
        if kind == Kind.TURN:
            outbox.queue_turn(
                target,
                user,
                prefix(channel, endpoint) + ":",
                key,
                endpoint.quiet_hours,
                endpoint.digest,
            )
        else:
            due = outbox.due_time(user, endpoint.quiet_hours, now)
            if urgent_before is not None and due > urgent_before:
                due = now
            key_here = f"{prefix(channel, endpoint)}:{key}"
            outbox.queue(kind=kind, dedupe_key=key_here, due_at=due, **target)
        written += 1
    return written


def game_hook(game) -> Webhook | None:
    return Webhook.objects.filter(game=game, disabled_at=None).first()


def queue_game_channel(game, kind: str, key: str, hook: Webhook | None = None, **row) -> None:
    """The game's channel, if its creator set one up and it wants ``kind`` (``hook``: the
    channel read before, if it was)."""
    hook = hook or game_hook(game)
    if hook is None or kind not in GAME_CHANNEL_KINDS or EVENT_OF[kind] not in hook.events:
        return
    if kind == Kind.TURN:
        # The start's post names who moves first: the first turn goes with it.
        row["covered_by"] = outbox.pending_start(game, hook.user, Channel.WEBHOOK, webhook=hook)
    outbox.queue(
        kind=kind,
        channel=Channel.WEBHOOK,
        webhook=hook,
        user=hook.user,
        game=game,
        move_count=game.move_count,
        dedupe_key=f"game-channel:{hook.pk}:{key}",
        **row,
    )


def queue_test(user, channel: str, endpoint=None) -> Notification:
    """A test message, now (the player asked for it now), whatever the quiet hours."""
    stamp = timezone.now().isoformat()
    target = {"channel": channel, "address": user.email if channel == Channel.EMAIL else ""}
    if endpoint is not None:
        target.update(_target(channel, endpoint))
    key = f"test:{channel}:{getattr(endpoint, 'pk', 0)}:{user.pk}:{stamp}"
    return outbox.queue(kind=Kind.TEST, user=user, dedupe_key=key, **target)


# ---- what a row says, at send time -------------------------------------------------


def endpoint_of(row: Notification):
    """The row's device or webhook, or Skip when it is gone, off or no longer wants it."""
    if row.channel == Channel.PUSH:
        if row.device is None or not push.enabled():
            raise outbox.Skip("device removed")
        endpoint = row.device
    else:
        if row.webhook is None:
            raise outbox.Skip("webhook removed")
        endpoint = row.webhook
        if endpoint.disabled_at is not None:
            raise outbox.Skip("webhook switched off")
    event = EVENT_OF.get(row.kind)
    if row.kind != Kind.TEST and (event is None or event not in endpoint.events):
        raise outbox.Skip("not wanted on this channel")
    return endpoint


def game_facts(game) -> dict:
    return {
        "id": game.pk,
        "title": game.title,
        "kind": game.kind,
        "url": settings.SITE_URL + game.get_absolute_url(),
    }


def handles(users, service: str) -> dict[int, str]:
    found = Handle.objects.filter(user__in=users, service=service)
    return dict(found.values_list("user_id", "handle"))


def message(row: Notification, context: dict, lines: list[str]):
    """The push or webhook post of ``row``, from the mail's ``context`` (rendered in the
    recipient's language and time zone by the caller)."""
    endpoint = endpoint_of(row)
    game = context.get("game")
    user = row.user
    if game is not None and row.kind in TURN_KINDS:
        url = signin.url(user, game)
    elif game is not None:
        url = settings.SITE_URL + game.get_absolute_url()
    else:
        url = settings.SITE_URL + "/"
    title = " ".join(render_to_string(f"emails/{row.kind}-subject.txt", context).split())
    ping = Ping(
        event=row.kind,
        title=title,
        lines=lines,
        url=url,
        game=game_facts(game) if game is not None else None,
    )
    if row.channel == Channel.PUSH:
        payload = {**_push_payload(ping), "id": str(row.delivery_id)}
        return PushMessage(endpoint, payload, topic=_topic(row))
    if row.kind in TURN_KINDS or row.kind == Kind.DIGEST:
        handle = handles([user], endpoint.service).get(user.pk, "")
        ping.to_move = [Person(user.name, handle)]
    return WebhookPost(endpoint, ping, delivery=str(row.delivery_id))


def _push_payload(ping: Ping) -> dict:
    return {
        "title": ping.title,
        "body": "\n".join(ping.lines),
        "url": ping.url,
        "tag": f"game-{ping.game['id']}" if ping.game else ping.event,
    }


def _topic(row: Notification) -> str:
    # RFC 8030 topics: at most 32 characters of the base64url alphabet.
    return f"g{row.game_id}" if row.game_id else f"n{row.pk}"
