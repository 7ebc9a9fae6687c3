"""Every page costs a fixed number of queries, however many games, seats and moves there are."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import play
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _site(count_kind, me, size):
    """``size`` games in each state, most of them with ``me`` and two others,
    each running or finished one with a few turns played."""
    others = [UserFactory() for _ in range(size + 1)]
    running = None
    for n in range(size):
        players = [me, others[n], others[n + 1]]
        # waiting for players (the lobby)
        play.create_game(
            others[n],
            count_kind,
            title=f"open {n}",
            players=3,
            options={},
            time_limit_days=3,
            private=False,
        )
        for status in ("active", "finished"):
            game = play.create_game(
                players[0],
                count_kind,
                title=f"{status} {n}",
                players=3,
                options={},
                time_limit_days=3,
                private=False,
                timeout_policy=Game.TimeoutPolicy.SUBSTITUTE,
            )
            for user in players[1:]:
                play.join(game.pk, user)
            seats = {s.number: s.user for s in game.seats.all()}
            for turn in range(3):
                user = seats[turn % 3]
                play.act(game.pk, user, {"type": "add", "n": 1}, None)
                play.act(game.pk, user, {"type": "end"}, None)
            if status == "finished":
                play.resign(game.pk, seats[0])
            else:
                running = game
    return running


def counts(client, count_kind, size):
    me = UserFactory(username=f"me{size}")
    game = _site(count_kind, me, size)
    client.force_login(me)
    pages = {
        "lobby": "/",
        "my games": "/my/",
        "archive": "/archive/",
        "archive mine": "/archive/?mine=1",
        "profile": f"/u/{me.username}/",
        "game": f"/g/{game.pk}/",
        "history": f"/g/{game.pk}/?at=3",
    }
    found = {}
    for name, url in pages.items():
        client.get(url)  # warm: the cache and the session
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        found[name] = len(queries)
        if size == 3:
            print(name)
            for q in queries.captured_queries: print('   ', q['sql'][:150])
    return found


def test_print(client, count_kind):
    print(counts(client, count_kind, 3))
    print(counts(client, count_kind, 12))
