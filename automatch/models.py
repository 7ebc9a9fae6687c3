"""A ticket: a player looking for a game, until it is matched, withdrawn or lapses."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import clock
from games.models import Game


class Ticket(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("looking for players")
        MATCHED = "matched", _("matched")
        WITHDRAWN = "withdrawn", _("withdrawn")
        LAPSED = "lapsed", _("lapsed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="automatch_tickets"
    )
    kind = models.CharField(max_length=20)
    # The title's options as its create form offers them (the map, variants), validated
    # by its engine; tickets fit only with the same options.
    options = models.JSONField(default=dict)
    # The numbers of players the ticket accepts, ascending.
    player_counts = models.JSONField(default=list)
    # The pace: the game's time per move in days (one of GAME_TIME_LIMIT_DAYS), or a named
    # pace of banks (games.clock.paces) when ``pace`` is set ("" for none).
    time_limit_days = models.PositiveSmallIntegerField()
    pace = models.CharField(max_length=12, blank=True, default="")
    rated = models.BooleanField(default=True)
    # The ratings of the others at the table (None: any).
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    # From then on computer players may fill the table (unrated); None: never.
    fill_at = models.DateTimeField(null=True, blank=True)
    computer_strength = models.CharField(max_length=20, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [
            models.Index(
                fields=["kind", "created_at"],
                name="automatch_open",
                condition=models.Q(status="open"),
            )
        ]
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} looking for {self.kind} ({self.status})"

    @property
    def pace_label(self) -> str:
        """The named pace as the forms offer it ("" for the time per move)."""
        found = clock.named(self.pace) if self.pace else None
        return found.label if found else ""
