"""games.rows reads a row in plain SQL: it must give what the ORM gives."""

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game
from games.rows import RowReader
from tests.conftest import need_service
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


def test_the_game_row_is_the_one_the_orm_reads():
    users = UserFactory.create_batch(3)
    game = running_game("siam", users, options={"map": "saba"})
    Game.objects.filter(pk=game.pk).update(
        private=True, deadline=timezone.now() + datetime.timedelta(days=2)
    )
    expected = Game.objects.get(pk=game.pk)
    read, extra = RowReader(Game).read(game.pk)
    assert extra == ()
    assert isinstance(read, Game) and not read._state.adding
    for field in Game._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    assert read.options == {"map": "saba"} and read.private is True
    assert read.started_at.tzinfo is not None


@pytest.mark.parametrize("pk", [0, -1, 10**6, 2**63, 10**30, "1"])
def test_a_key_that_names_no_row_gives_none(pk):
    assert RowReader(Game).read(pk) is None


def test_an_unknown_game_is_still_a_404_on_every_route(client):
    assert client.get(f"/g/{2**64}/").status_code == 404
    assert client.get(f"/g/{2**64}/poll?v=1&c=0").status_code == 404


def test_on_postgresql_the_hot_queries_are_planned_once_per_connection():
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    users = UserFactory.create_batch(2)
    game = running_game("siam", users)
    reader = RowReader(Game)
    assert reader.read(game.pk)[0].pk == game.pk
    assert reader.read(game.pk)[0].pk == game.pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
        prepared = [
            # the plain read (the game's operations lock the row with another statement)
            row
            for row in cursor.fetchall()
            if row[0].endswith('"games_game" t  WHERE t."id" = $1')
        ]
    # Planned once, generically: not weighed against a fresh plan on every call.
    assert [(generic, custom) for _, generic, custom in prepared] == [(2, 0)], prepared


def test_while_queries_are_counted_they_are_logged_with_their_text(
    django_assert_num_queries,
):
    users = UserFactory.create_batch(2)
    game = running_game("siam", users)
    with django_assert_num_queries(1) as captured:
        RowReader(Game).read(game.pk)
    assert f'WHERE t."id" = {game.pk}' in captured.captured_queries[0]["sql"]


def test_a_join_gives_its_columns_beside_the_row():
    from games.models import Seat

    users = UserFactory.create_batch(2)
    game = running_game("siam", users)
    reader = RowReader(
        Game,
        join="LEFT JOIN games_seat s ON s.game_id = t.id AND s.user_id = %s",
        also="s.number",
    )
    seat = Seat.objects.get(game=game, user=users[1])
    read, (number,) = reader.read(game.pk, [users[1].pk])
    assert read == game and number == seat.number
    assert reader.read(game.pk, [None])[1] == (None,)


def test_the_seats_are_the_ones_the_orm_reads_with_their_players():
    from games.models import Seat
    from games.rows import SeatReader

    users = UserFactory.create_batch(4)
    game = running_game("siam", users[:3])
    # A computer stands in for the second seat's player (a LEFT JOIN that finds a row).
    Seat.objects.filter(game=game, user=users[1]).update(stood_in_for=users[3])
    users[0].vacation_until = timezone.localdate()
    users[0].save()
    expected = list(game.seats.select_related("user", "stood_in_for"))
    read = SeatReader().read(game)
    assert [s.pk for s in read] == [s.pk for s in expected]
    with django_assert_no_queries():
        for got, want in zip(read, expected, strict=True):
            assert isinstance(got, Seat) and not got._state.adding
            for field in Seat._meta.concrete_fields:
                assert getattr(got, field.attname) == getattr(want, field.attname), field.name
            assert got.game is game
            for related in ("user", "stood_in_for"):
                a, b = getattr(got, related), getattr(want, related)
                assert (a is None) == (b is None), related
                if a is not None:
                    for field in type(a)._meta.concrete_fields:
                        assert getattr(a, field.attname) == getattr(b, field.attname), field.name
    mine = next(s for s in read if s.user_id == users[0].pk)
    assert mine.user.vacation_until == timezone.localdate()
    assert sum(s.stood_in_for is not None for s in read) == 1


def django_assert_no_queries():
    from django.test.utils import CaptureQueriesContext

    class NoQueries(CaptureQueriesContext):
        def __exit__(self, *exc):
            super().__exit__(*exc)
            assert not self.captured_queries, self.captured_queries

    return NoQueries(connection)


def test_a_locking_read_locks_the_row_on_a_database_that_has_row_locks(
    django_assert_num_queries,
):
    from django.db import transaction

    users = UserFactory.create_batch(2)
    game = running_game("siam", users)
    reader = RowReader(Game, lock=True)
    with transaction.atomic(), django_assert_num_queries(1) as captured:
        read, _ = reader.read(game.pk)
    assert read == game and read.seed == Game.objects.get(pk=game.pk).seed
    sql = captured.captured_queries[0]["sql"]
    assert sql.endswith(" FOR UPDATE") == connection.features.has_select_for_update


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused():
    from django.db.transaction import TransactionManagementError

    users = UserFactory.create_batch(2)
    game = running_game("siam", users)
    with pytest.raises(TransactionManagementError):
        RowReader(Game, lock=True).read(game.pk)
