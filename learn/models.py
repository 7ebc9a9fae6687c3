"""A first game: a practice game whose learner is told the rule behind every step."""

from django.conf import settings
from django.db import models

from games.models import Game


class Walkthrough(models.Model):
    """``game`` is ``learner``'s first game of its title, against a computer: its page
    explains each step the learner is asked to take (``learn.frame``)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"walkthrough of {self.learner_id} in {self.game_id}"
