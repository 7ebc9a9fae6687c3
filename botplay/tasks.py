"""The Celery task that plays a computer player's turn."""

from __future__ import annotations

import logging

from celery import shared_task

import bots
from games import play, replay
from games.models import Game
from games.pages import view_token

from .accounts import strength_of

logger = logging.getLogger(__name__)

MAX_STEPS = 500  # one turn of atomic actions is far fewer; a guard against a loop


@shared_task(ignore_result=True)
def play_turn(game_id: int, number: int) -> int:
    """Make the bot in seat ``number`` act until its turn is over; returns the actions made.

    Each action is sent with the token of the position the bot decided on, as
    a page would: if anything the bot can see changed meanwhile (another copy
    of this task acted first, a take-back, a timeout), ``play.act`` refuses it
    and this copy stops, so no turn is played twice.
    """
    made = 0
    for _ in range(MAX_STEPS):
        game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
        if game is None:
            break
        seat = game.seats.select_related("user").filter(number=number).first()
        if seat is None or not seat.user.is_bot:
            break
        engine = game.engine
        state = replay.current_state(game)
        if number not in engine.active_seats(state):
            break
        action = bots.choose(
            engine,
            state,
            number,
            strength_of(seat.user),
            salt=f"{game.pk}:{game.move_count}",
            players=game.players,
        )
        try:
            play.act(game_id, seat.user, action, view_token(engine.view(state, number)))
        except play.PlayError as error:
            logger.info("bot in game %s seat %s stops: %s", game_id, number, error.message)
            break
        made += 1
    return made
