"""The cache is an optimisation, never a dependency: with Redis gone the site
reads the database and carries on (moves, pages, polls, sign-in)."""

import shutil
import socket
import subprocess
import time

import pytest
from django.core.cache import cache

from config import cache as resilient
from games import replay
from games.models import Game, Move
from tests.conftest import need_service
from tests.factories import UserFactory

from .conftest import post_action

pytestmark = pytest.mark.django_db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_cache(port):
    return {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


@pytest.fixture
def dead_redis(settings):
    """The production cache backend, pointed at a port where nothing listens."""
    settings.CACHES = redis_cache(free_port())
    resilient.reset()
    yield
    resilient.reset()


def test_moves_pages_and_polls_carry_on_without_redis(client, started, dead_redis):
    game, first, second = started
    failures = resilient.failures
    client.force_login(first)
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert post_action(client, game, {"type": "add", "n": 2}).json()["ok"]
    assert post_action(client, game, {"type": "end"}).json()["ok"]
    client.force_login(second)
    assert client.get(f"/g/{game.pk}/board").status_code == 200
    assert client.get(f"/g/{game.pk}/poll?v=0&c=0").status_code == 200
    game.refresh_from_db()
    assert client.get(f"/g/{game.pk}/poll?v={game.version}&c=0").status_code == 204
    assert Move.objects.count() == 2
    assert resilient.failures > failures  # noticed, logged and counted


def test_signing_in_works_without_redis_and_the_rate_limit_lets_it_through(
    client, dead_redis, caplog
):
    UserFactory(username="carla")
    for _ in range(12):  # more failures than the limit allows: not enforceable now
        client.post("/accounts/login/", {"login": "carla", "password": "wrong"})
    answer = client.post("/accounts/login/", {"login": "carla", "password": "a-long-test-password"})
    assert answer.status_code == 302
    assert "cache" in caplog.text and "failed" in caplog.text


def test_an_unavailable_cache_is_not_asked_again_at_once(dead_redis, monkeypatch):
    cache.get("anything")
    calls = []
    monkeypatch.setattr(
        "django.core.cache.backends.redis.RedisCache.get", lambda *a, **k: calls.append(a)
    )
    assert cache.get("anything", "fallback") == "fallback"
    assert calls == []


@pytest.fixture
def own_redis(settings, tmp_path):
    """A real redis-server of this test's own, which the test may stop and start."""
    binary = shutil.which("redis-server")
    need_service(binary is not None, "redis-server")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", tmp_path]

    def start():
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                return process
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    settings.CACHES = redis_cache(port)
    resilient.reset()
    server = {"process": start()}

    def stop():
        server["process"].terminate()
        server["process"].wait(5)

    def restart():
        server["process"] = start()
        resilient.reset()  # don't wait out the pause after the failure

    yield stop, restart
    stop()
    resilient.reset()


def test_real_redis_stopped_and_restarted_during_play(client, started, own_redis):
    stop, restart = own_redis
    game, first, second = started
    client.force_login(first)
    assert post_action(client, game, {"type": "add", "n": 1}).json()["ok"]
    assert cache.get(replay._cache_key(game)) is not None  # the cache really is in use
    stop()
    assert post_action(client, game, {"type": "end"}).json()["ok"]
    client.force_login(second)
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert post_action(client, game, {"type": "add", "n": 1}).json()["ok"]
    assert post_action(client, game, {"type": "end"}).json()["ok"]
    client.force_login(first)
    assert post_action(client, game, {"type": "add", "n": 2}).json()["ok"]
    restart()
    # The entry cached before the outage is stale: the replay notices and catches up.
    assert post_action(client, game, {"type": "end"}).json()["ok"]
    game = Game.objects.get(pk=game.pk)
    assert game.move_count == 6
    assert replay.current_state(game).total == replay.fresh_replay(game).total == 4
    assert client.get(f"/g/{game.pk}/").status_code == 200


def test_every_thread_shares_one_redis_client_and_pool(settings):
    # Django makes a cache object per thread; each used to open its own pool.
    import threading

    from django.core.cache import caches

    settings.CACHES = redis_cache(free_port())
    found = []

    def look():
        client = caches["default"]._cache
        found.append((client, client._get_connection_pool(write=True), client.get_client()))

    threads = [threading.Thread(target=look) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    look()
    assert len({id(client) for client, _, _ in found}) == 1
    assert len({id(pool) for _, pool, _ in found}) == 1
    # and one redis.Redis on it, not a new one (with its callback table) per call
    assert len({id(redis) for _, _, redis in found}) == 1
