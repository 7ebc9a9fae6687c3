"""Queue a computer player's move once the change that gave it the turn has committed."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from games import signals
from games.models import Game


@receiver(signals.turn_started)
def turn_started(sender, game: Game, seats, move_count: int, **kwargs) -> None:
    from .tasks import play_turn

    for seat in seats:
        if seat.user.is_bot:
            game_id, number = game.pk, seat.number
            transaction.on_commit(lambda g=game_id, n=number: play_turn.delay(g, n))
