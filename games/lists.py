"""A player's lists of games and the archive, each read along one index, so that a page
costs the same however many games the site and the player have (docs/performance.md)."""

from __future__ import annotations

from django.db import connection
from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from .models import FALSE, TRUE, Game, Seat

MY_FINISHED = 20
# A list's games with their seats and players, in one query for all of them.
WITH_PLAYERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


def seats_to_move(user) -> QuerySet[Seat]:
    """``user``'s seats in running games that wait for their move (seat_user_to_move)."""
    return Seat.objects.filter(user=user, to_move=TRUE, game__status=Game.Status.ACTIVE)


def waiting_count(user) -> int:
    """The menu's badge: what waits for ``user`` — their move, an invitation or a
    rematch offer to answer — counted in one query."""
    from community.rematch import offers_for
    from lobby.invites import pending_for

    selects, params = [], []
    for part in (seats_to_move(user), pending_for(user), offers_for(user)):
        sql, part_params = part.order_by().values("pk").query.sql_with_params()
        selects.append(f"(SELECT COUNT(*) FROM ({sql}) AS part)")
        params.extend(part_params)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + " + ".join(selects), params)
        return cursor.fetchone()[0]


def my_seats(user) -> tuple[list[Seat], list[Seat]]:
    """``user``'s seats in running games (their turn first, then the longest waiting, then
    the newest game) and in the latest finished ones (newest first), each with its game,
    the game's seats and their players.

    A seat a computer player holds for ``user`` (they timed out) counts as theirs
    (``Seat.person``): they may take it back while the game runs, and its game is
    theirs once it ends. Aborted games count as finished once they had a board: their
    history is worth keeping.
    """
    # Both walk seat_person_ended: the running seats (ended_at is None), and the
    # finished ones newest first.
    running = list(
        Seat.objects.filter(person=user, ended_at=None)
        .select_related("game")
        .order_by("-to_move", "to_move_since", "-game__created_at")
    )
    finished = list(
        Seat.objects.filter(person=user, ended_at__isnull=False, game__started_at__isnull=False)
        .select_related("game")
        .order_by("-ended_at", "-id")[:MY_FINISHED]
    )
    prefetch_related_objects([seat.game for seat in running + finished], WITH_PLAYERS)
    return running, finished


def finished_games(player=None, public: bool = True) -> QuerySet[Game]:
    """The archive, newest first: the public games that ended after their start, or
    (``player``) such games of ``player``'s, their private ones too unless ``public``."""
    # Every game that ended after its start, and only such a game, has a finished_at:
    # filtering on it (not on the status) leaves the database one index, game_archive,
    # to walk newest first instead of sorting every finished game.
    games = Game.objects.filter(finished_at__isnull=False, started_at__isnull=False)
    # The id breaks ties: pages are cut by offset, and games that ended at the same moment
    # (one sweep of the deadlines) in no fixed order could show twice or never.
    if player is not None:
        # The player's seats in that order (seat_person_ended), each joined to its game:
        # a game a computer finished for them (they ran out of time) is theirs too.
        games = games.filter(seats__person=player, seats__ended_at__isnull=False)
        games = games.order_by("-seats__ended_at", "-seats__id")
    else:
        games = games.order_by("-finished_at", "-id")
    if public:
        games = games.filter(private=FALSE)
    return games.prefetch_related(WITH_PLAYERS)


def running_games(player) -> QuerySet[Game]:
    """``player``'s public games that have not ended (open or running), newest first:
    their seats that have not ended (seat_person_ended), each joined to its game."""
    games = Game.objects.filter(seats__person=player, seats__ended_at=None, private=FALSE)
    games = games.exclude(status=Game.Status.ABORTED).order_by("-seats__joined_at", "-seats__id")
    return games.prefetch_related(WITH_PLAYERS)
