"""community 0004: the games that ended before the profile kept scores and opponents get
them from their results and seats, as scoring keeps them now."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.factories import UserFactory

GAMES = ("games", "0017_remove_game_left_on_time")
BEFORE = [("community", "0002_rematch_pending_index"), GAMES]
AFTER = [("community", "0004_backfill_points_and_opponents"), GAMES]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_games_ended_before_the_change_get_their_scores_and_opponents():
    apps = _migrate(BEFORE)
    try:
        Game = apps.get_model("games", "Game")
        Seat = apps.get_model("games", "Seat")
        SeatRecord = apps.get_model("community", "SeatRecord")
        PlayerStats = apps.get_model("community", "PlayerStats")
        ada, bo = UserFactory(), UserFactory()
        result = {
            "winners": [1],
            "ranking": [1, 0],
            "reason": {"key": "Over."},
            "details": {"points": [12, 30], "pyramids": [], "rounds": 4},
        }
        now = timezone.now()
        game = Game.objects.create(
            kind="tal", title="Old", players=2, rules_version=1, status="finished",
            started_at=now, finished_at=now, result=result,
        )  # fmt: skip
        for number, user in enumerate((ada, bo)):
            Seat.objects.create(game=game, user_id=user.pk, person_id=user.pk, number=number)
            SeatRecord.objects.create(
                game=game, user_id=user.pk, kind="tal", seat=number, counted=True,
                won=number == 1, timed_out=False,
            )  # fmt: skip
            PlayerStats.objects.create(user_id=user.pk, kind="tal", played=1, won=number, ended=1)

        apps = _migrate(AFTER)
        SeatRecord = apps.get_model("community", "SeatRecord")
        PlayerStats = apps.get_model("community", "PlayerStats")
        Opponent = apps.get_model("community", "Opponent")
        assert SeatRecord.objects.get(user_id=bo.pk).points == 30
        stats = PlayerStats.objects.get(user_id=ada.pk)
        assert (stats.points_total, stats.points_games) == (12, 1)
        met = Opponent.objects.get(user_id=bo.pk, opponent_id=ada.pk)
        assert (met.games, met.won) == (1, 1)
        assert Opponent.objects.get(user_id=ada.pk, opponent_id=bo.pk).won == 0
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
