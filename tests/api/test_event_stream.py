"""A token's event stream, served for real (uvicorn, config.asgi) on both hubs: it is
a live stream like the pages' (``live.streams``): it listens before it reads, so a turn
that comes while it connects is told; it counts against its token's cap; and its place
is given back however it ends."""

import asyncio
import gc
import json

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncRequestFactory

from api import events, tokens
from games import play
from live import caps, hub, keeper
from tests.factories import UserFactory, running_game
from tests.live.conftest import (  # noqa: F401  (fixtures)
    _live_state,
    asgi_server,
    hub_mode,
    streams,
    wait_for,
)

from .conftest import bearer

pytestmark = pytest.mark.django_db(transaction=True)
PATH = "/api/v1/events"


@pytest.fixture
def game(count_kind):
    return running_game("count", [UserFactory(), UserFactory()])


def hand_on(game):
    """The player to move ends their turn."""
    mover = game.seats.get(to_move=True).user
    play.act(game.pk, mover, {"type": "add", "n": 1}, None)
    play.act(game.pk, mover, {"type": "end"}, None)


def test_a_turn_that_comes_while_the_stream_subscribes_is_told(
    hub_mode,  # noqa: F811
    game,
    streams,  # noqa: F811
    monkeypatch,
):
    waiting = game.seats.get(to_move=False).user
    secret = tokens.make(waiting, "bot", ["read"])[1]
    handed = []

    def moved_first(subscribe):
        async def open_after_a_move(self, names):
            if not handed:  # the other player ends their turn just before the subscription
                handed.append(True)
                await sync_to_async(hand_on)(game)
            return await subscribe(self, names)

        return open_after_a_move

    monkeypatch.setattr(hub.LocalHub, "open", moved_first(hub.LocalHub.open))
    monkeypatch.setattr(hub.RedisHub, "open", moved_first(hub.RedisHub.open))
    stream = streams(PATH, headers=bearer(secret))
    assert stream.status == 200 and handed
    event = stream.next(timeout=3)
    assert (event["event"], json.loads(event["data"])) == ("my_turn", {"game": game.pk})


def test_a_tokens_streams_are_capped_and_a_closed_ones_place_comes_back(
    hub_mode,  # noqa: F811
    game,
    streams,  # noqa: F811
    settings,
):
    settings.LIVE_STREAMS_PER_USER = 1
    player = game.seats.first().user
    first_token = bearer(tokens.make(player, "one", ["read"])[1])
    other_token = bearer(tokens.make(player, "two", ["read"])[1])
    first = streams(PATH, headers=first_token)
    assert first.status == 200
    assert streams(PATH, headers=first_token).status == 429
    assert streams(PATH, headers=other_token).status == 200  # each token its own cap
    first.close()  # the client goes away

    def place_freed():
        keeper.run_once(refresh=False, presence_due=False, local_due=False)
        return streams(PATH, headers=first_token).status == 200

    wait_for(place_freed, 5, "a closed stream's place was not given back")


def test_a_stream_whose_answer_is_never_sent_gives_its_place_back(game, settings):
    settings.LIVE_STREAMS_PER_USER = 1
    settings.LIVE_REDIS_URL = ""
    player = game.seats.first().user
    token, _secret = tokens.make(player, "bot", ["read"])
    request = AsyncRequestFactory().get(PATH)
    request.user, request.api_token = player, token

    async def answered_and_dropped():
        response = await events.events(request)
        assert response.status_code == 200
        # The client left before the answer went out: nothing reads the stream.
        await sync_to_async(connections.close_all)()

    asyncio.run(answered_and_dropped())
    gc.collect()
    assert caps.take(f"api:{token.pk}", "next")
