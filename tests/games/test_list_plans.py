"""Every long list of games is read in its order from an index, never sorted whole:
with 100,000 finished games a sort reads them all for one page of 30 (issue: the
lists' cost must not grow with the site). Checked with EXPLAIN on PostgreSQL."""

import pytest
from django.db import connection, transaction

from games import lists
from lobby import listing
from tests.conftest import need_service
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def plan_of(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with transaction.atomic(), connection.cursor() as cursor:
        # A test's tables are small enough to read whole and sort: ask for the plan of
        # big ones. A Sort left in the plan then means no index gives the order.
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            cursor.execute(f"SET LOCAL {setting} = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def lobby_filter():
    chosen = listing.LobbyFilter({})
    assert chosen.is_valid()
    return chosen


LISTS = {
    "archive, page 2": (lambda user: lists.finished_games()[30:61], "game_archive"),
    "archive of mine, page 2": (
        lambda user: lists.finished_games(user, public=False)[30:61],
        "seat_person_ended",
    ),
    "a player's archive, page 2": (
        lambda user: lists.finished_games(user)[30:61],
        "seat_person_ended",
    ),
    "lobby's open games": (lambda user: listing.open_games(lobby_filter()), "game_lobby"),
    "lobby's games to watch, page 2": (
        lambda user: listing.games_to_watch(lobby_filter(), 2).paginator.object_list[20:41],
        "game_watch",
    ),
}


@pytest.mark.parametrize("name", LISTS)
def test_on_postgresql_a_list_of_games_walks_its_index_without_sorting(name):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    make, index = LISTS[name]
    plan = plan_of(make(UserFactory()))
    assert index in plan, plan
    assert "Sort" not in plan, plan
