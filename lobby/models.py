"""What the lobby keeps beside the games: invitations by user name."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Invitation(models.Model):
    """A player asked by name to join an open game; for a private game,
    accepting replaces the invite link."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "invitee"], name="one_invitation_per_player")
        ]
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.invitee} to {self.game_id}"
