"""Weekends off follow each player's own time zone: a player who moves to another zone
(their settings) has their running banks' deadlines drawn anew from then on."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from games import deadlines, play
from games.clock import Pace
from games.clock import seats as banks
from games.models import Game
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
# A Friday, 13:00 in Berlin: its weekend begins at 23:00 UTC, New York's at 05:00 UTC.
FRIDAY = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)
SETTINGS = {"language": "", "notify_reminder_hours": "24"}


def test_a_players_new_time_zone_moves_the_deadline_of_their_running_bank(count_kind, client):
    alice = UserFactory(time_zone="Europe/Berlin")
    bob = UserFactory(time_zone="Europe/Berlin")
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = running_game(
            "count", [alice, bob], pace=Pace(12 * H, 1 * H, 12 * H), weekends_off=True
        )
        mover = game.seats.get(to_move=True).user
        # 11 hours to the weekend in Berlin, the last hour on Monday.
        assert game.deadline == datetime(2027, 3, 8, 0, 0, tzinfo=UTC)

        clock.move_to(FRIDAY + 1 * H)
        client.force_login(mover)
        answer = client.post("/settings/", {**SETTINGS, "time_zone": "America/New_York"})
        assert answer.status_code == 302
        game.refresh_from_db()
        # The hour in Berlin is spent; the 11 left run out before New York's weekend.
        seat = game.seats.get(user=mover)
        assert banks.left(game, seat, timezone.now()) == 11 * H
        assert game.deadline == datetime(2027, 3, 6, 0, 0, tzinfo=UTC)

        clock.move_to(game.deadline + timedelta(minutes=1))
        assert deadlines.sweep()["timed_out"] == 1
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED


def test_a_new_time_zone_leaves_games_without_weekends_off_alone(count_kind, client):
    alice, bob = UserFactory(time_zone="Europe/Berlin"), UserFactory()
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = running_game("count", [alice, bob], pace=Pace(12 * H, 1 * H, 12 * H))
        mover = game.seats.get(to_move=True).user
        clock.move_to(FRIDAY + 1 * H)
        client.force_login(mover)
        client.post("/settings/", {**SETTINGS, "time_zone": "America/New_York"})
        game.refresh_from_db()
        assert game.deadline == FRIDAY + 12 * H
        assert play.time_zone_changed(mover, "Europe/Berlin") == 0


def test_a_zone_this_system_does_not_know_is_read_as_utc_by_every_part():
    from accounts import local_time
    from games.clock import zones
    from notify import schedule

    assert zones.named("Europe/Berlin").key == "Europe/Berlin"
    assert zones.named("Mars/Olympus") == zones.named("") == zones.UTC
    # The one lookup the clock, the mail schedule and the header's local time share.
    assert schedule.zones is local_time.zones is zones
