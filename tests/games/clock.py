"""Shared helpers for the deadline, vacation and calendar tests."""

import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from games import play, registry, signals
from games.models import Game

START = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def new_game(kind, users, *, time_limit_days=3, **options) -> Game:
    """A running game of ``kind`` (a GameKind or slug) between ``users``."""
    if isinstance(kind, str):
        kind = registry.get(kind)
    extra = {k: options.pop(k) for k in ("timeout_policy", "vacation_allowed") if k in options}
    game = play.create_game(
        users[0],
        kind,
        title="Clock test",
        players=len(users),
        options=options,
        time_limit_days=time_limit_days,
        private=False,
        **extra,
    )
    for user in users[1:]:
        play.join(game.pk, user)
    game.refresh_from_db()
    return game


def mover(game: Game):
    """The user of the (single) seat to move."""
    return game.seats.get(to_move=True).user


@contextmanager
def finished_signals(linger: float = 0):
    """Collect the ``game_finished`` signals sent meanwhile: [(game id, status), ...].

    ``linger`` keeps the ending transaction open that long, so that a racing
    sweep reads the game while it is being ended.
    """
    seen = []

    def receiver(sender, game, **kwargs):
        seen.append((game.pk, game.status))
        time.sleep(linger)

    signals.game_finished.connect(receiver, weak=False)
    try:
        yield seen
    finally:
        signals.game_finished.disconnect(receiver)
