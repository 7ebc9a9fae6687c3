"""Game signals that feed ratings and records; run inside the game's transaction."""

from django.dispatch import receiver

from games import signals
from games.models import Game

from . import scoring


@receiver(signals.game_finished)
def game_finished(sender, game: Game, **kwargs) -> None:
    scoring.score(game)


@receiver(signals.seat_opened)
def seat_opened(sender, game: Game, number: int, user, **kwargs) -> None:
    seat = game.seats.filter(number=number).first()
    scoring.record_departure(game, number, user, seat.joined_at if seat else None)
