"""A player's private note on a game: read and written by its author only."""

from django.conf import settings
from django.db import models

from games.models import Game

# Enough for a plan and a list of what the others hold; a note is no diary.
MAX_LENGTH = 5000


class Note(models.Model):
    """One note per player and game. It belongs to the player, not to a position: undo,
    take-backs and the end of the game leave it as it is."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True)
    # Counts the saves: the game page's cache key reads it (an emptied note keeps its
    # row, so the count never goes back to a value a cached page was drawn with).
    revision = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_note_per_player_and_game")
        ]

    def __str__(self) -> str:
        return f"note of user {self.user_id} on game {self.game_id}"
