"""The outbox: one row per message the site owes somebody on one channel (an e-mail,
a push to one device, a post to one webhook), the push devices and webhooks, and
per-game mutes."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# The ``skipped`` of a post whose worker died while sending it, in the outbox of earlier
# versions (which sent no such post again): the admin's "retry now" sends it again. Now
# such a row goes again with the same Message-ID or delivery id (notify.delivery).
INTERRUPTED = "interrupted while sending: it may have arrived"


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", _("your turn")
        DIGEST = "digest", _("daily digest")
        REMINDER = "reminder", _("reminder")
        LAST_WARNING = "last_warning", _("last warning")
        GAME_STARTED = "game_started", _("game started")
        GAME_FINISHED = "game_finished", _("game finished")
        STOOD_IN = "stood_in", _("a computer player took your seat")
        SEAT_OPENED = "seat_opened", _("your seat went to a substitute")
        CANCEL_ASKED = "cancel_asked", _("a request to cancel a game")
        INVITED = "invited", _("an invitation to a game")
        REMATCH_OFFERED = "rematch_offered", _("a rematch offer")
        MENTIONED = "mentioned", _("a mention in a game's chat")
        PREMOVE_DROPPED = "premove_dropped", _("your queued actions were not played")
        PAUSE_ASKED = "pause_asked", _("a request to pause a game")
        RESUME_ASKED = "resume_asked", _("a request to end a pause early")
        TAKE_BACK_ASKED = "take_back_asked", _("a request to take back a turn")
        RAW = "raw", _("account e-mail")
        TEST = "test", _("a test message")
        HOOK_DISABLED = "hook_disabled", _("a webhook was switched off")

    class Channel(models.TextChoices):
        EMAIL = "email", _("e-mail")
        PUSH = "push", _("push")
        WEBHOOK = "webhook", _("webhook")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    # One row, one channel: its e-mail address, or its device, or its webhook.
    channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.EMAIL)
    address = models.EmailField(blank=True)
    device = models.ForeignKey(
        "notify.PushDevice", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    webhook = models.ForeignKey(
        "notify.Webhook", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The chat line of a mention.
    chat_message = models.ForeignKey(
        "games.ChatMessage", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    move_count = models.PositiveIntegerField(null=True, blank=True)
    # The start of the turn the row is about (Seat.to_move_since): a turn e-mail
    # for a turn that is over is not sent.
    turn_since = models.DateTimeField(null=True, blank=True)
    dedupe_key = models.CharField(max_length=200, unique=True)
    # Turn mails of a digest user wait here until the digest row collects them.
    in_digest = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(db_index=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # A push or webhook post whose connection stood: from then on the receiver may have
    # it. A worker that dies after this leaves a post that is not repeated on its own.
    sending_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Set when the row needs no e-mail any more (preference off, game open, ...).
    skipped = models.CharField(max_length=100, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # Account mail (allauth) is rendered when it is asked for and kept as is.
    subject = models.CharField(max_length=250, blank=True)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    # Names the message wherever it goes, the same on every attempt: the e-mail's
    # Message-ID, a post's X-PBW-Delivery, a push's id. A copy sent again after a worker
    # died between the receiver's acceptance and the "sent" mark carries it too, so the
    # receiver can tell it for the same message (mail programs fold such copies).
    delivery_id = models.UUIDField(default=uuid.uuid4, editable=False)
    # A turn that a game's start message on the same channel carries (written in the
    # same transaction): it is not sent on its own unless that message is skipped.
    covered_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="covered"
    )

    class Meta:
        indexes = [models.Index(fields=["sent_at", "claimed_at", "due_at"])]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient}"

    @property
    def message_id(self) -> str:
        """The e-mail's Message-ID (RFC 5322): the delivery id at the site's domain."""
        domain = urlsplit(settings.SITE_URL).hostname or "localhost"
        return f"<{self.delivery_id}@{domain}>"

    @property
    def recipient(self) -> str:
        if self.channel == self.Channel.PUSH:
            return f"push {self.device_id or '(removed)'}"
        if self.channel == self.Channel.WEBHOOK:
            return f"webhook {self.webhook_id or '(removed)'}"
        return self.address

    @property
    def state(self) -> str:
        if self.sent_at:
            return "sent"
        if self.skipped == INTERRUPTED:
            return "interrupted"
        if self.skipped:
            return "skipped"
        if self.claimed_at:
            return "sending"
        if self.attempts:
            return "retrying"
        return "pending"


class Mute(models.Model):
    """A player who wants no e-mail about one game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_mute_per_game")]

    def __str__(self) -> str:
        return f"{self.user} muted {self.game_id}"


# What a player chooses per channel, like the mail settings: which kinds of message.
class Events(models.TextChoices):
    TURN = "turn", _("my turn")
    REMINDER = "reminder", _("reminders and last warnings")
    GAME = "game", _("games starting and ending, rematches, requests to cancel, pause or take back")
    INVITED = "invited", _("invitations")
    MENTION = "mention", _("mentions of me in a game's chat")


def all_events() -> list[str]:
    return list(Events.values)


class Endpoint(models.Model):
    """What push devices and webhooks share: which events, quiet hours and digest."""

    events = models.JSONField(_("send"), default=all_events)
    quiet_hours = models.BooleanField(_("silent during my quiet hours"), default=True)
    digest = models.BooleanField(_("collect my turns into the daily digest"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class PushDevice(Endpoint):
    """A browser's push subscription (W3C Push API): where the push service takes our
    messages for one device, and the keys to encrypt them for it (RFC 8291)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    name = models.CharField(_("device name"), max_length=60)
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"


class Webhook(Endpoint):
    """A URL the site posts to: a player's own (their turns, like their mail) or, with
    ``game`` set, a game's channel that its creator set up (every turn of that game)."""

    class Service(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        MATRIX = "matrix", _("Matrix (hookshot)")
        JSON = "json", _("JSON (signed)")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    service = models.CharField(_("service"), max_length=10, choices=Service.choices)
    url = models.URLField(_("webhook URL"), max_length=1000)
    # The key of the generic JSON hook's HMAC-SHA256 signature (docs/webhooks.md).
    secret = models.CharField(max_length=64)
    failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(game__isnull=False), name="one_hook_per_game"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_service_display()} hook of {self.user}"


class Handle(models.Model):
    """How a player is named on a chat service, so a game's channel can mention them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_handles"
    )
    service = models.CharField(max_length=10, choices=Webhook.Service.choices)
    handle = models.CharField(max_length=100)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "service"], name="one_handle_per_service")
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.service}"


class UsedSignInLink(models.Model):
    """The nonce of a one-click sign-in link that has been used: a link works once."""

    nonce = models.CharField(max_length=40, unique=True)
    used_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return self.nonce
