"""Shared steps for the community tests (ratings, records, rematch, cancellation, substitutes)."""

from games import play, replay
from games.models import Game


def finish_by_play(game: Game) -> Game:
    """Play Count to Ten to its end: seat 0 adds 2 a turn, the others 1, so seat 0 wins."""
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        seat = game.seats.get(to_move=True)
        play.act(game.pk, seat.user, {"type": "add", "n": 2 if seat.number == 0 else 1}, None)
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            play.act(game.pk, seat.user, {"type": "end"}, None)
            game.refresh_from_db()
    assert game.result["winners"] == [0]
    assert replay.current_state(game).total >= 10
    return game
