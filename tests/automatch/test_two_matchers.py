"""Two matchers at once (the beat's and a new ticket's, on two workers), on
PostgreSQL: every ticket is claimed by one of them, and seated once."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from automatch import seating
from automatch.models import Ticket
from games import signals
from games.models import Game, Seat
from tests.conftest import need_service
from tests.factories import UserFactory


@pytest.mark.django_db(transaction=True)
def test_two_matchers_at_once_seat_every_ticket_exactly_once():
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    players = [UserFactory() for _ in range(6)]
    for user in players:
        Ticket.objects.create(
            user=user,
            kind="siam",
            options={"map": "siam"},
            player_counts=[2],
            time_limit_days=3,
            expires_at=timezone.now() + timedelta(days=1),
        )

    def linger(sender, **kwargs):
        time.sleep(0.2)  # each start holds its claims a while: the runs overlap

    signals.game_started.connect(linger, weak=False)
    barrier = threading.Barrier(2)
    started = {}

    def run(name):
        barrier.wait()
        try:
            started[name] = len(seating.match_open())
        finally:
            connection.close()

    try:
        threads = [threading.Thread(target=run, args=(name,)) for name in ("beat", "new")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        signals.game_started.disconnect(linger)
    assert sum(started.values()) == 3 == Game.objects.count()
    assert Seat.objects.count() == 6
    assert Seat.objects.values("user").distinct().count() == 6
    assert not Ticket.objects.filter(status="open").exists()
    assert not Ticket.objects.filter(game=None).exists()
