"""games 0016: the players who left a seat to a substitute before seats were kept (only
``Game.left_on_time`` remembered them) get that seat back as a vacated row; going back
turns vacated rows into that list again."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.factories import UserFactory

BEFORE = [("games", "0015_seat_person_one_index"), ("community", "0002_rematch_pending_index")]
AFTER = [("games", "0016_seat_vacated")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_seat_left_before_the_change_comes_back_as_a_vacated_one():
    apps = _migrate(BEFORE)
    try:
        Game = apps.get_model("games", "Game")
        Seat = apps.get_model("games", "Seat")
        SeatRecord = apps.get_model("community", "SeatRecord")
        # The accounts table is as it is now (only games went back): today's model.
        stay, late, sub = UserFactory(), UserFactory(), UserFactory()
        started = timezone.now() - timedelta(days=10)
        game = Game.objects.create(
            kind="siam", title="Left", players=2, rules_version=1, status="active",
            started_at=started,
            left_on_time=[late.pk, 10**9],  # and an account deleted since
        )  # fmt: skip
        Seat.objects.create(game=game, user_id=stay.pk, person_id=stay.pk, number=0)
        Seat.objects.create(game=game, user_id=sub.pk, person_id=sub.pk, number=1)
        record = SeatRecord.objects.create(
            game=game, user_id=late.pk, kind="siam", seat=1, counted=True, won=False, timed_out=True
        )
        left_at = started + timedelta(days=4)
        SeatRecord.objects.filter(pk=record.pk).update(created_at=left_at)

        apps = _migrate(AFTER)
        Seat = apps.get_model("games", "Seat")
        vacated = Seat.objects.get(game_id=game.pk, user_id=late.pk)
        assert vacated.vacated and vacated.number == 1 and vacated.person_id == late.pk
        assert vacated.ended_at == left_at and vacated.joined_at == started
        held = Seat.objects.filter(game_id=game.pk, vacated=False)
        assert sorted(held.values_list("user_id", flat=True)) == [stay.pk, sub.pk]
        assert Seat.objects.filter(game_id=game.pk).count() == 3

        # And back: the list of ids again, and no row that would break the old constraint.
        apps = _migrate(BEFORE)
        game = apps.get_model("games", "Game").objects.get(pk=game.pk)
        assert game.left_on_time == [late.pk]
        assert apps.get_model("games", "Seat").objects.filter(game_id=game.pk).count() == 2
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
