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

M = TypeVar("M", bound=models.Model)


class RowReader(Generic[M]):
    """``model`` rows by primary key; with ``join`` (SQL naming the row's table as
    ``t``) and ``also`` (its columns), ``read`` gives those columns too, raw."""

    def __init__(self, model: type[M], *, join: str = "", also: str = "") -> None:
        self.model, self.join, self.also = model, join, also
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
        converters = []
        for i, field in enumerate(fields):
            column = field.get_col(table)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                converters.append((i, column.output_field, found))
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
        if not isinstance(pk, int) or not low <= pk <= high:
            return None
        with planned_cursor() as cursor:
            cursor.execute(sql, [*join_params, pk])
            row = cursor.fetchone()
        if row is None:
            return None
        values = list(row[: len(names)])
        for i, field, found in converters:
            value = values[i]
            for convert in found:
                value = convert(value, field, connection)
            values[i] = value
        return self.model.from_db("default", names, values), tuple(row[len(names) :])


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
