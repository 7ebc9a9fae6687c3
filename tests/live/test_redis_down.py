"""Redis stops while pages are open: their streams end (the pages poll), a warning is
logged, moves go on as if nothing happened, a new stream is refused (204) until
Redis is back, and then a page's new stream catches it up on everything it missed.
A Redis server of the test's own (``own_redis``), stopped and started again."""

from __future__ import annotations

import logging
import time

import pytest
from django.conf import settings as django_settings

from games import play
from live import hub

from .conftest import wait_for
from .test_streams import add_one, game, live_path, seat_user  # noqa: F401  (game: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_redis_stopped_mid_stream(game, streams, own_redis, settings, caplog):  # noqa: F811
    url, stop, restart = own_redis
    settings.LIVE_REDIS_URL = url
    anna, bert = seat_user(game, 0), seat_user(game, 1)
    stream = streams(live_path(game, game.version, game.chat_count), bert)
    assert stream.status == 200
    told = add_one(game)
    assert stream.next(timeout=3)["data"] == told
    assert stream.next(timeout=3)["event"] == "badge"  # bert's turn now

    caplog.set_level(logging.WARNING, logger="live")
    stop()
    assert stream.next(timeout=5) is None  # the stream ended: the page polls now
    assert any("lost Redis" in r.getMessage() for r in caplog.records)

    started = time.monotonic()
    missed = add_one(game)  # a move succeeds, at once, with Redis down
    play.post_chat(game.pk, anna, "still here")
    assert time.monotonic() - started < 2
    assert any("cannot publish" in r.getMessage() for r in caplog.records)
    assert streams(live_path(game, game.version, game.chat_count), bert).status == 204

    restart()
    hub.reset()  # forget the failed publish now rather than in five seconds
    game.refresh_from_db()
    now = f"{game.version} {game.chat_count}"
    assert now != missed

    def reconnected():
        again = streams(live_path(game, 0, 0), bert, last_event_id=stream.last_id)
        return again if again.status == 200 else None

    again = wait_for(reconnected, 10, "no stream after Redis came back")
    assert again.next(timeout=3)["data"] == now  # caught up on the move and the chat line
    assert again.next(timeout=3)["event"] == "badge"  # and told to look at its badge
    told = add_one(game)
    assert again.next(timeout=3)["data"] == told  # and live again
    assert django_settings.LIVE_REDIS_URL == url
