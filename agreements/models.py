"""Requests that need every player's agreement: pause the clock until a date, end that
pause early, take back the last turn after it was handed over."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Request(models.Model):
    """One player's request to the table; one may be open per game at a time."""

    class Kind(models.TextChoices):
        PAUSE = "pause", _("pause the game")
        RESUME = "resume", _("end the pause early")
        TAKE_BACK = "take_back", _("take back a turn")

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for answers")
        AGREED = "agreed", _("agreed")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")
        # The game moved on (a move, the pause ended, the date passed) before all agreed.
        LAPSED = "lapsed", _("lapsed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.PositiveSmallIntegerField()
    # A pause: when the clock is to run again.
    until = models.DateTimeField(null=True, blank=True)
    # A take-back: the turn's moves (numbers first to last) and the log's length
    # (moves in force and taken back) when asked: any change to the log voids it.
    first = models.PositiveIntegerField(null=True, blank=True)
    last = models.PositiveIntegerField(null=True, blank=True)
    log_length = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # Who refused, for the page ("Ben said no").
    refused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="open"),
                name="one_open_request_per_game",
            )
        ]
        ordering = ["game", "-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} in {self.game_id} ({self.status})"


class Answer(models.Model):
    """A player's yes to a request (a no decides it at once: ``Request.refused_by``)."""

    request = models.ForeignKey(Request, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["request", "user"], name="one_answer_per_request")
        ]

    def __str__(self) -> str:
        return f"{self.user} agrees to {self.request_id}"
