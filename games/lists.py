"""A player's lists of games and the archive, each read along one index, so that a page
costs the same however many games the site and the player have (docs/performance.md)."""

from __future__ import annotations

import functools

from django.db import connection
from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from . import extend
from .models import FALSE, TRUE, Game, Seat

MY_FINISHED = 20
# A list's games with their seats and players, in one query for all of them.
WITH_PLAYERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


def seats_to_move(user) -> QuerySet[Seat]:
    """``user``'s seats in running games that wait for their move (seat_user_to_move)."""
    return Seat.objects.filter(user=user, to_move=TRUE, game__status=Game.Status.ACTIVE)


def waiting_count(user) -> int:
    """The menu's badge: what waits for ``user`` (their move, and what feature apps
    count: an invitation or a rematch offer to answer), counted in one query
    (``badge_counts``)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {' + '.join(badge_counts())}", badge_params(user.pk))
        return cursor.fetchone()[0]


def badge_counts() -> tuple[str, ...]:
    """The badge's parts as SQL subqueries, written once (compiling ORM querysets on
    every page cost more than the query): the user's running seats to move, then what
    feature apps count (``games.extend.add_badge_part``: invitations, rematch offers).
    Parameters: ``badge_params``. ``games.pagecache`` counts them in the query of its key.
    """
    return _badge_counts(extend.generation())


@functools.cache
def _badge_counts(generation: int) -> tuple[str, ...]:
    seat, game = Seat._meta.db_table, Game._meta.db_table
    turns = (
        f"(SELECT COUNT(*) FROM {seat} b1 JOIN {game} b2 ON b2.id = b1.game_id"
        f" WHERE b1.user_id = %(badge_user)s AND b1.to_move = %(badge_yes)s"
        f" AND b2.status = %(badge_active)s)"
    )
    return (turns, *(part.sql for part in extend.badge_parts()))


def badge_params(user_id: int | None) -> dict:
    params = {"badge_user": user_id, "badge_yes": True, "badge_active": Game.Status.ACTIVE}
    for part in extend.badge_parts():
        if part.params is not None:
            params.update(part.params())
    return params


def my_seats(user) -> tuple[list[Seat], list[Seat]]:
    """``user``'s seats in running games (their turn first, then the longest waiting, then
    the newest game) and in the latest finished ones (newest first), each with its game,
    the game's seats and their players.

    A seat a computer player holds for ``user`` (they timed out) counts as theirs
    (``Seat.person``): they may take it back while the game runs, and its game is
    theirs once it ends. A seat they left to a substitute (``Seat.vacated``) is among
    the finished ones from when they left: the game is over for them. Aborted games
    count as finished once they had a board: their history is worth keeping.
    """
    # Both walk seat_person_ended: the running seats (ended_at is None), and the
    # finished ones newest first.
    running = list(
        Seat.objects.filter(person=user, ended_at=None)
        .select_related("game")
        .order_by("-to_move", "to_move_since", "-game__created_at")
    )
    # Seat.every: a game they left to a substitute is theirs too, ended when they left.
    finished = list(
        Seat.every.filter(person=user, ended_at__isnull=False, game__started_at__isnull=False)
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
        # a game a computer finished for them (they ran out of time) is theirs too, and
        # so is one they left to a substitute (a vacated seat, ended when they left).
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
