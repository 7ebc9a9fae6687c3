"""The outbox: one row per e-mail the site owes somebody, and per-game mutes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
        PREMOVE_DROPPED = "premove_dropped", _("your queued actions were not played")
        PAUSE_ASKED = "pause_asked", _("a request to pause a game")
        RESUME_ASKED = "resume_asked", _("a request to end a pause early")
        TAKE_BACK_ASKED = "take_back_asked", _("a request to take back a turn")
        RAW = "raw", _("account e-mail")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    address = models.EmailField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
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

    class Meta:
        indexes = [models.Index(fields=["sent_at", "claimed_at", "due_at"])]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} to {self.address}"

    @property
    def state(self) -> str:
        if self.sent_at:
            return "sent"
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
