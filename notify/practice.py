"""Which mail a practice game sends: one player against computers only.

The player started it to try a title and plays it while looking at it; the computers
answer within seconds. Mail about its start or about each turn would only tell them
what they see ("…has started", "your turn"), so a practice game sends none, and no
reminder. It does send what the player cannot see coming: the last warning before
their time runs out, and the end when the site ended the game (the clock ran out, a
moderator stopped it); an end they played (the last move, a resignation) they saw.
"""

from __future__ import annotations

from games.models import Game

# Result details the site writes when it, not the play, ended a game (games.play).
ENDED_BY_THE_SITE = ("timed_out", "removed", "aborted")


def is_practice(game: Game) -> bool:
    """Every seat is taken, one by a person and all others by computers playing for
    themselves (a computer standing in for a late player makes no practice game)."""
    if not game.computer_played:  # a practice game has had computers from its start
        return False
    seats = list(game.seats.select_related("user"))
    people = [seat for seat in seats if not seat.user.is_bot]
    return (
        len(seats) == game.players
        and len(people) == 1
        and all(seat.stood_in_for_id is None for seat in seats)
    )


def end_is_news(game: Game) -> bool:
    """Whether the end of a practice game is worth a mail: the site ended it."""
    details = (game.result or {}).get("details") or {}
    return any(details.get(name) for name in ENDED_BY_THE_SITE)
