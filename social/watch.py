"""Games to watch: the running public games most worth a look, and the games of the
players one follows, each with a small drawing of its board (``games.thumbnails``).

Interest, in this order: games of players the viewer follows, tournament finals, the games
most players without a seat looked at lately (``games.spectators``), then the strongest
tables (the players' mean rating in the title, ``games.extend.ratings``), the latest move
breaking ties. Only the ``CANDIDATES`` games moved last are weighed (the
``game_watch`` index), so the page costs the same however many games run; a game nobody
has moved in for longer is not much to watch.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games import extend, spectators, thumbnails
from games.lists import WITH_PLAYERS
from games.models import FALSE, Game
from tournaments.models import Round, Table

from .models import Follow

CANDIDATES = 200
SHOWN = 12


@dataclass
class Watched:
    game: Game
    followed: list[Any]  # the players in it the viewer follows
    finals: bool
    rating: int  # the players' mean rating in the title
    spectators: int = 0  # signed-in players without a seat who looked at it lately
    drawing: Any = None

    def interest(self) -> tuple:
        return (len(self.followed), self.finals, self.spectators, self.rating, _moved(self))


def _moved(entry: Watched) -> float:
    moved = entry.game.last_move_at
    return moved.timestamp() if moved is not None else 0.0


def _running(limit: int) -> list[Game]:
    games = Game.objects.filter(status=Game.Status.ACTIVE, private=FALSE)
    return list(games.order_by("-last_move_at", "-id").prefetch_related(WITH_PLAYERS)[:limit])


def _weigh(games: list[Game], viewer) -> list[Watched]:
    ids = [game.pk for game in games]
    finals = set(
        Table.objects.filter(game_id__in=ids, round__stage=Round.Stage.FINALS).values_list(
            "game_id", flat=True
        )
    )
    people = {seat.user_id: seat.user for game in games for seat in game.seats.all()}
    followed = set()
    if viewer.is_authenticated:
        followed = set(
            Follow.objects.filter(follower=viewer, followed_id__in=people).values_list(
                "followed_id", flat=True
            )
        )
    by_kind: dict[str, set[int]] = defaultdict(set)
    for game in games:
        by_kind[game.kind].update(seat.user_id for seat in game.seats.all())
    ratings = {kind: extend.ratings(kind, sorted(users)) for kind, users in by_kind.items()}
    watching = spectators.counts(ids)
    weighed = []
    for game in games:
        seated = [seat.user_id for seat in game.seats.all()]
        mean = sum(ratings[game.kind][u] for u in seated) // max(1, len(seated))
        weighed.append(
            Watched(
                game,
                [people[u] for u in seated if u in followed],
                game.pk in finals,
                mean,
                watching.get(game.pk, 0),
            )
        )
    return weighed


def games_to_watch(viewer, shown: int = SHOWN) -> list[Watched]:
    """The ``shown`` running public games of most interest to ``viewer``, each drawn."""
    chosen = sorted(_weigh(_running(CANDIDATES), viewer), key=Watched.interest, reverse=True)
    chosen = chosen[:shown]
    for entry in chosen:
        entry.drawing = thumbnails.thumbnail(entry.game)
    return chosen


def followed_games(viewer, shown: int = SHOWN) -> list[Watched]:
    """The running public games of the players ``viewer`` follows, latest move first."""
    if not viewer.is_authenticated:
        return []
    players = Follow.objects.filter(follower=viewer).values("followed_id")
    games = Game.objects.filter(
        status=Game.Status.ACTIVE, private=FALSE, seats__user__in=players
    ).distinct()
    games = list(games.order_by("-last_move_at", "-id").prefetch_related(WITH_PLAYERS)[:shown])
    weighed = sorted(_weigh(games, viewer), key=_moved, reverse=True)
    for entry in weighed:
        entry.drawing = thumbnails.thumbnail(entry.game)
    return weighed
