"""Tournaments made and played through the service functions (fast: no HTTP)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

import bots
from games import play, replay
from games.models import Game
from tests.factories import UserFactory
from tournaments import running
from tournaments.models import Tournament


def make(creator=None, entrants: int = 4, **fields) -> Tournament:
    creator = creator or UserFactory()
    defaults = {
        "name": "Test cup",
        "kind": "count",
        "options": {"target": "10"},
        "table_size": 2,
        "format": Tournament.Format.SWISS,
        "rounds": 2,
        "min_entrants": 2,
        "max_entrants": 16,
        "signup_closes": timezone.now() + timedelta(days=1),
    }
    defaults.update(fields)
    tournament = running.create(creator, **defaults)
    for n in range(entrants):
        running.enter(tournament.pk, UserFactory(username=f"entrant{n + 1}"))
    return tournament


def start(tournament: Tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(signup_closes=timezone.now())
    running.advance(tournament.pk)
    tournament.refresh_from_db()
    return tournament


def running_games(tournament: Tournament) -> list[Game]:
    return list(
        Game.objects.filter(
            tournament_table__tournament=tournament, status=Game.Status.ACTIVE
        ).order_by("pk")
    )


def play_to_the_end(game: Game) -> None:
    """Random legal moves until the game is over."""
    for step in range(500):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = replay.current_state(game)
        number = min(game.engine.active_seats(state))
        seat = game.seats.select_related("user").get(number=number)
        action = bots.choose(game.engine, state, number, "random", salt=f"{game.pk}:{step}")
        play.act(game.pk, seat.user, action, None)


def table_of(game: Game):
    return game.tournament_table
