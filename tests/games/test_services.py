"""The production parts, for real: PostgreSQL row locks and the Redis state cache.

Both skip on a machine without the servers, and fail instead in CI
(REQUIRE_SERVICES=1).
"""

import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from games import play, replay
from games.models import Game, Move
from tests.conftest import need_service

from .conftest import post_action


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submissions_for_the_same_move_exactly_one_wins(started):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    game, first, _ = started
    version = game.version
    barrier = threading.Barrier(2)
    statuses = []

    def submit(n):
        client = Client()
        client.force_login(first)
        barrier.wait()
        try:
            statuses.append(post_action(client, game, {"type": "add", "n": n}, version).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(n,)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    assert list(Move.objects.filter(game=game).values_list("number", flat=True)) == [1]
    game.refresh_from_db()
    assert game.move_count == 1
    assert replay.current_state(game) == replay.fresh_replay(game)


@pytest.mark.django_db(transaction=True)
def test_many_racing_moves_leave_a_log_without_gaps_or_duplicates(started):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    game, first, second = started
    users = {0: first, 1: second}
    for _ in range(4):
        game.refresh_from_db()
        state = replay.current_state(game)
        seat = next(iter(game.engine.active_seats(state)))
        actions = game.engine.legal_actions(state, seat)
        barrier = threading.Barrier(len(actions) + 1)
        statuses = []

        def submit(action, seat=seat, version=game.version, barrier=barrier, statuses=statuses):
            client = Client()
            client.force_login(users[seat])
            barrier.wait()
            try:
                statuses.append(post_action(client, game, action, version).status_code)
            finally:
                connection.close()

        # Every legal action plus one duplicate of the first, all at once.
        threads = [threading.Thread(target=submit, args=(a,)) for a in actions + actions[:1]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses.count(200) == 1
        assert set(statuses) <= {200, 409}
    numbers = list(Move.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4]
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.move_count == 4


@pytest.mark.django_db
def test_state_cache_round_trips_through_redis(started, monkeypatch):
    need_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    assert isinstance(caches["default"], RedisCache)
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    game.refresh_from_db()
    expected = replay.current_state(game)  # stores it in Redis
    engine = game.engine
    monkeypatch.setattr(engine, "apply", lambda *a: pytest.fail("replayed"))
    monkeypatch.setattr(engine, "setup", lambda *a: pytest.fail("replayed"))
    assert replay.current_state(game) == expected


def test_a_past_position_is_replayed_once_then_read_from_the_cache(started, monkeypatch):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    game.refresh_from_db()
    expected = replay.state_at(game, 1)
    monkeypatch.setattr(game.engine, "apply", lambda *a: pytest.fail("replayed"))
    assert replay.state_at(game, 1) == expected
    with pytest.raises(pytest.fail.Exception):
        replay.fresh_replay(game)  # the check of the cache never trusts it
