"""One row by its primary key in plain SQL, for the requests that come most often.

Every request for a game (the page, each poll every few seconds, each move) starts
by reading the game's row. Compiling that ORM query costs several times more than
running it (0.5 ms against 0.05 ms on SQLite, ``bench/site_load.py``), and a poll
that finds nothing new does nothing else. So the SQL is built once, and the row is
converted with the ORM's own converters (JSON, dates, booleans) into a model
instance, the same one ``Model.objects.get(pk=...)`` would give.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Generic, TypeVar

from django.db import connections, models
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=models.Model)


class RowReader(Generic[M]):
    """``model`` rows by primary key; with ``join`` (SQL naming the row's table as
    ``t``) and ``also`` (its columns), ``read`` gives those columns too, raw.
    ``lock``: ``SELECT ... FOR UPDATE``, as ``select_for_update()`` (only inside a
    transaction; a database without row locks, SQLite, locks the whole file)."""

    def __init__(
        self, model: type[M], *, join: str = "", also: str = "", lock: bool = False
    ) -> None:
        self.model, self.join, self.also, self.lock = model, join, also, lock
        self._plan: tuple | None = None

    def _prepare(self, connection) -> tuple:
        table = self.model._meta.db_table
        fields = list(self.model._meta.concrete_fields)
        quote = connection.ops.quote_name
        columns = ", ".join(f"t.{quote(f.column)}" for f in fields)
        if self.also:
            columns += f", {self.also}"
        pk = quote(self.model._meta.pk.column)
        sql = f"SELECT {columns} FROM {quote(table)} t {self.join} WHERE t.{pk} = %s"
        if self.lock and connection.features.has_select_for_update:
            sql += " FOR UPDATE"
        converters = _converters(self.model, connection)
        # A primary key out of the column's range names no row (as in the ORM), where
        # the database would refuse the query.
        low, high = connection.ops.integer_field_range(self.model._meta.pk.get_internal_type())
        names = [f.attname for f in fields]
        return connection.vendor, sql, names, converters, low, high

    def read(self, pk, join_params: Sequence = ()) -> tuple[M, tuple] | None:
        """The row as a model instance, and the values of the ``also`` columns."""
        connection = connections["default"]
        if self._plan is None or self._plan[0] != connection.vendor:
            self._plan = self._prepare(connection)
        _, sql, names, converters, low, high = self._plan
        if self.lock and connection.get_autocommit():
            raise TransactionManagementError("A locking read outside a transaction locks nothing.")
        if not isinstance(pk, int) or not low <= pk <= high:
            return None
        with planned_cursor() as cursor:
            cursor.execute(sql, [*join_params, pk])
            row = cursor.fetchone()
        if row is None:
            return None
        values = _converted(row[: len(names)], converters, connection)
        return self.model.from_db("default", names, values), tuple(row[len(names) :])


def _converters(model: type[models.Model], connection) -> list[tuple]:
    """(column index, field, converters) of each of ``model``'s columns that has any."""
    table = model._meta.db_table
    converters = []
    for i, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((i, column.output_field, found))
    return converters


def column_converter(model: type[models.Model], name: str):
    """What turns the raw value of ``model``'s column ``name``, as a cursor returns it,
    into the field's value, as the ORM does (a JSON column's text into its object)."""
    connection = connections["default"]
    field = model._meta.get_field(name)
    column = field.get_col(model._meta.db_table)
    found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)

    def convert(value):
        for step in found:
            value = step(value, column.output_field, connection)
        return value

    return convert


def _converted(row: Sequence, converters: list[tuple], connection) -> list:
    values = list(row)
    for i, field, found in converters:
        value = values[i]
        for convert in found:
            value = convert(value, field, connection)
        values[i] = value
    return values


def _order_by(model: type[models.Model], name: str, quote) -> str:
    """One of ``Meta.ordering``'s names in SQL (the ORM's order for the seats)."""
    field = name.lstrip("-")
    column = model._meta.pk.column if field == "pk" else model._meta.get_field(field).column
    return f"s.{quote(column)} {'DESC' if name.startswith('-') else 'ASC'}"


class SeatReader:
    """A game's seats in seat order, each with its player and the player a computer
    stands in for: ``game.seats.select_related("user", "stood_in_for")``, the same
    instances, with the SQL built once.

    Every page of a game and every move reads them; compiling that query cost 1.5 to
    3 ms (two joined user tables, the ordering), running it 0.1 ms (SQLite).
    """

    def __init__(self) -> None:
        self._plan: tuple | None = None

    def _prepare(self, connection) -> tuple:
        from .models import Seat

        user_model = Seat._meta.get_field("user").related_model
        quote = connection.ops.quote_name
        parts = []
        for model, alias in ((Seat, "s"), (user_model, "u"), (user_model, "t")):
            fields = list(model._meta.concrete_fields)
            names = [f.attname for f in fields]
            parts.append((model, alias, names, _converters(model, connection)))
        columns = ", ".join(
            f"{alias}.{quote(f.column)}"
            for model, alias, _names, _found in parts
            for f in model._meta.concrete_fields
        )
        seat_table, user_table = quote(Seat._meta.db_table), quote(user_model._meta.db_table)
        user_id = quote(Seat._meta.get_field("user").column)
        stood_in = quote(Seat._meta.get_field("stood_in_for").column)
        user_pk = quote(user_model._meta.pk.column)
        game_id = quote(Seat._meta.get_field("game").column)
        vacated = quote(Seat._meta.get_field("vacated").column)  # as Seat.objects
        order = ", ".join(_order_by(Seat, name, quote) for name in Seat._meta.ordering)
        sql = (
            f"SELECT {columns} FROM {seat_table} s"
            f" INNER JOIN {user_table} u ON s.{user_id} = u.{user_pk}"
            f" LEFT OUTER JOIN {user_table} t ON s.{stood_in} = t.{user_pk}"
            f" WHERE s.{game_id} = %s AND NOT s.{vacated} ORDER BY {order}"
        )
        pk_at = list(user_model._meta.concrete_fields).index(user_model._meta.pk)
        return connection.vendor, sql, parts, pk_at

    def read(self, game: models.Model) -> list:
        """The seats of ``game`` (the instance each seat's ``game`` is, as in the ORM)."""
        connection = connections["default"]
        if self._plan is None or self._plan[0] != connection.vendor:
            self._plan = self._prepare(connection)
        _, sql, parts, pk_at = self._plan
        with planned_cursor() as cursor:
            cursor.execute(sql, [game.pk])
            rows = cursor.fetchall()
        (seat_model, _, seat_names, seat_conv), (user_model, _, user_names, user_conv) = parts[:2]
        width = len(seat_names)
        seats = []
        for row in rows:
            seat = seat_model.from_db(
                "default", seat_names, _converted(row[:width], seat_conv, connection)
            )
            user_row = row[width : width + len(user_names)]
            user = user_model.from_db(
                "default", user_names, _converted(user_row, user_conv, connection)
            )
            stood_row = row[width + len(user_names) :]
            stood_in = None
            if stood_row[pk_at] is not None:  # the outer join found the player stood in for
                stood_in = user_model.from_db(
                    "default", user_names, _converted(stood_row, user_conv, connection)
                )
            meta = seat_model._meta
            meta.get_field("game").set_cached_value(seat, game)
            meta.get_field("user").set_cached_value(seat, user)
            meta.get_field("stood_in_for").set_cached_value(seat, stood_in)
            seats.append(seat)
        return seats


# The one reader of a game's seats (board_page, play.act): its SQL is built once per process.
read_seats = SeatReader().read


@contextmanager
def planned_cursor() -> Iterator:
    """A cursor whose queries PostgreSQL plans once per connection.

    Django's cursors bind parameters in the client, so PostgreSQL plans every
    query anew; for the page-cache key's query (games.pagecache) planning took
    0.85 ms and running it 0.37. On PostgreSQL with ``prepare_threshold`` set
    (config.settings, ``DATABASE_PREPARED_STATEMENTS``) this is a server-binding
    cursor, whose queries psycopg prepares; elsewhere, and while queries are
    logged (DEBUG, or a test counting them: Django cannot show the text of a
    prepared query), it is the usual cursor.
    """
    connection = connections["default"]
    if (
        connection.vendor != "postgresql"
        or connection.settings_dict["OPTIONS"].get("prepare_threshold") is None
        or connection.queries_logged
    ):
        with connection.cursor() as cursor:
            yield cursor
        return
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    # connection.cursor() would make the connection's default (client-binding)
    # cursor; _prepare_cursor is what it then does to wrap one.
    with connection._prepare_cursor(ServerBindingCursor(connection.connection)) as cursor:
        yield cursor
