"""For real: two Celery worker processes on Redis, both asked again and again to take a
tournament's next step, start each round exactly once. PostgreSQL (so the workers see
the test database) and Redis; skipped without them, failing under REQUIRE_SERVICES=1."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import play
from games.models import Game
from tests.factories import UserFactory
from tests.notify.test_real_services import broker, need_services, wait_for, worker
from tournaments import running
from tournaments.models import Round, Table, Tournament
from tournaments.tasks import advance, advance_all

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_workers_start_each_round_exactly_once(tmp_path):
    need_services()
    creator = UserFactory()
    tournament = running.create(
        creator,
        name="Race cup",
        kind="siam",
        options={"map": "siam"},
        table_size=2,
        format=Tournament.Format.SWISS,
        rounds=2,
        min_entrants=2,
        max_entrants=8,
        signup_closes=timezone.now() + timedelta(days=1),
    )
    for n in range(8):
        running.enter(tournament.pk, UserFactory(username=f"racer{n}", notify_game_end=False))
    Tournament.objects.filter(pk=tournament.pk).update(signup_closes=timezone.now())
    queue = f"test-{uuid.uuid4().hex[:8]}"
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    logs = [tmp_path / "worker1.log", tmp_path / "worker2.log"]
    with (
        broker(settings.REDIS_URL, queue),
        # Two start at once: on a busy machine that takes a while.
        worker(settings.REDIS_URL, queue, mail_dir, logs[0], ready_seconds=90),
        worker(settings.REDIS_URL, queue, mail_dir, logs[1], ready_seconds=90),
    ):
        for _ in range(10):  # what beat and finished games ask for, many times over
            advance.delay(tournament.pk)
            advance_all.delay()
        wait_for(lambda: Table.objects.filter(tournament=tournament).count() >= 4, 60, logs[0])
        time.sleep(2)  # a second start would show now
        assert Round.objects.filter(tournament=tournament).count() == 1
        assert Game.objects.filter(tournament_table__tournament=tournament).count() == 4
        # Each game's first player resigns: the round ends, and each end asks for the
        # next round (after its commit, through the broker), as do we, many times.
        for game in Game.objects.filter(tournament_table__tournament=tournament):
            play.resign(game.pk, game.seats.get(number=0).user)
        for _ in range(10):
            advance.delay(tournament.pk)
        wait_for(lambda: Round.objects.filter(tournament=tournament).count() >= 2, 60, logs[1])
        time.sleep(2)
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Table.objects.filter(tournament=tournament, round__number=2).count() == 4
    tournament.refresh_from_db()
    assert tournament.step == 2  # the start with round 1, then round 2: two steps
    # Both workers took part in the race.
    assert all("tournaments.tasks.advance" in log.read_text() for log in logs)
