"""Queue a computer player's move once the change that gave it the turn has committed."""

from __future__ import annotations

import logging
import threading

from django.db import transaction
from django.dispatch import receiver

from games import signals
from games.models import Game

logger = logging.getLogger(__name__)

_eager = threading.local()


@receiver(signals.turn_started)
def turn_started(sender, game: Game, seats, move_count: int, **kwargs) -> None:
    for seat in seats:
        if seat.user.is_bot:
            game_id, number = game.pk, seat.number
            transaction.on_commit(lambda g=game_id, n=number: queue_turn(g, n))


def queue_turn(game_id: int, number: int) -> None:
    """Queue the task; run eagerly (tests, ``make run``), run one task after another.

    An eager task runs inside the ``on_commit`` of the move that queued it: a
    bot whose move gives the turn to another bot would start that bot's task
    inside its own, and a long chain of computer turns would nest as deep as
    it is long. Instead, a task queued while another runs in this thread waits
    in a list that the outermost call works through, in order.
    """
    from .tasks import play_turn

    if not play_turn.app.conf.task_always_eager:
        _publish(game_id, number)
        return
    pending = getattr(_eager, "pending", None)
    if pending is not None:
        pending.append((game_id, number))
        return
    _eager.pending = [(game_id, number)]
    try:
        while _eager.pending:
            _publish(*_eager.pending.pop(0))
    finally:
        _eager.pending = None


def _publish(game_id: int, number: int) -> None:
    """Never fails the move that gave the computer its turn (it has committed):
    with the broker down, or a failing eager task, the computer's clock runs
    and the deadline sweep queues its move again."""
    from .tasks import play_turn

    try:
        play_turn.delay(game_id, number)
    except Exception:
        logger.warning(
            "could not queue the computer's move in game %s seat %s",
            game_id,
            number,
            exc_info=True,
        )
