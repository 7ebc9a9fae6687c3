"""The load benchmark's extra views exist only under its own settings module."""

import pytest
from django.core.management import call_command
from django.test import override_settings

from games.models import Game, Move, Receipt, Seat

from ..factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


def test_the_bench_views_are_not_in_the_sites_urls(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get("/bench/trivial").status_code == 404
    game = running_game("siam", [user, UserFactory()])
    assert client.post("/bench/insert", {"game": game.pk}).status_code == 404
    assert not Receipt.objects.exists()


@override_settings(ROOT_URLCONF="config.settings_bench")
def test_the_bench_settings_add_a_trivial_view_and_an_insert(client):
    user = UserFactory()
    assert client.get("/bench/trivial").status_code == 302  # signed-in users only
    client.force_login(user)
    response = client.get("/bench/trivial")
    assert response.status_code == 200 and response.content == f"ok {user.pk}".encode()
    game = running_game("siam", [user, UserFactory()])
    assert client.post("/bench/insert", {"game": game.pk}).status_code == 200
    assert Receipt.objects.filter(user=user, game=game).count() == 1
    assert client.get("/").status_code == 200  # the site itself is still there


def test_bench_fill_adds_finished_games_with_moves():
    me = UserFactory(username="benchme")
    call_command("bench_fill", games=30, moves=95, users=5, user="benchme", every=10)
    assert Game.objects.filter(status="finished").count() == 30
    assert Move.objects.count() == 95
    assert Seat.objects.filter(user=me).count() == 3
    assert {g.move_count for g in Game.objects.all()} == {3, 4}
    for game in Game.objects.all()[:3]:
        moves = list(game.moves.order_by("number"))
        assert [m.number for m in moves] == list(range(1, game.move_count + 1))
        assert all(isinstance(m.action, dict) and m.action["type"] for m in moves)
        assert all(m.created_at is not None and not m.undone for m in moves)
    with pytest.raises(Exception, match="already holds games"):
        call_command("bench_fill", games=1, moves=0)


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_bench_fill_leaves_the_tables_vacuumed_as_autovacuum_would():
    from django.db import connection

    from tests.conftest import need_service

    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    call_command("bench_fill", games=3, moves=9, users=3)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL"
            " AND relname IN ('games_game', 'games_seat', 'games_move')"
        )
        assert sorted(row[0] for row in cursor.fetchall()) == [
            "games_game",
            "games_move",
            "games_seat",
        ]
