"""Game signals that move tournaments and ladders on; run inside the game's transaction."""

from django.dispatch import receiver

from games import signals
from games.models import Game

from . import queue, running
from .models import LadderGame


@receiver(signals.game_finished)
def game_finished(sender, game: Game, **kwargs) -> None:
    table = running.record_game(game)
    if table is not None:
        queue.after_commit(queue.ADVANCE, table.tournament_id)
        return
    ladder_id = LadderGame.objects.filter(game=game).values_list("ladder_id", flat=True).first()
    if ladder_id is not None:
        queue.after_commit(queue.PAIR_LADDER, ladder_id)
