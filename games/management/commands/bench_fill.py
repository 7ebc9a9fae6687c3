"""Fill a benchmark database with many finished games, fast (bulk inserts in batches).

    manage.py bench_fill --games 100000 --moves 1000000 [--user NAME --every 100]

For ``bench/site_load.py``: pages must cost the same with 100,000 games in the database
as with 100. Every game is a finished two-player Tal der Könige game between two of a
pool of bench users, with a real result and real moves (the first moves of one seeded
random game, so the rows look like the site's own). ``--user`` also seats that user in
every ``--every``-th game, so that "my games" and the archive's "mine" have something to
list. Never run it on a database holding real games: it refuses unless ``--yes`` is given
or the database has no games yet.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from games import registry
from games.models import Game, Move, Seat

BATCH = 5000


def _sample_game(engine, moves: int) -> tuple[int, list[tuple[int, dict]], dict]:
    """(seed, the first ``moves`` (seat, action) pairs, the result) of a random
    two-player game of ``engine``."""
    for seed in range(1, 100):
        rng = random.Random(seed)
        state = engine.setup(2, {}, seed)
        played: list[tuple[int, dict]] = []
        while engine.result(state) is None:
            seat = rng.choice(sorted(engine.active_seats(state)))
            action = rng.choice(engine.legal_actions(state, seat))
            played.append((seat, action))
            state = engine.apply(state, seat, action)
        if len(played) >= moves:
            return seed, played[:moves], dict(engine.result(state))
    raise CommandError(f"no random game reached {moves} moves")


def _move_rows(sample: list[tuple[int, dict]]) -> tuple[str, Any]:
    """The moves table with its columns ("table (columns)") and a maker of its rows: a
    million model objects through ``bulk_create`` took minutes. Every column is filled as
    the model would fill it (fields it does not name get their defaults), each distinct
    value prepared for the database once.
    """
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    now = timezone.now()
    fixed = {}
    for f in fields:
        if f.attname not in ("game_id", "number", "seat", "action"):
            value = now if f.attname == "created_at" else f.get_default()
            fixed[f.attname] = f.get_db_prep_save(value, connection)
    action_field = Move._meta.get_field("action")
    actions = [action_field.get_db_prep_save(a, connection) for _seat, a in sample]
    quote = connection.ops.quote_name
    into = "{} ({})".format(quote(Move._meta.db_table), ", ".join(quote(f.column) for f in fields))

    def row(game_id: int, number: int) -> tuple[Any, ...]:
        values = {"game_id": game_id, "number": number, "seat": sample[number - 1][0]}
        values["action"] = actions[number - 1]
        return tuple(values[f.attname] if f.attname in values else fixed[f.attname] for f in fields)

    return into, row


def _insert_moves(into: str, rows: list[tuple[Any, ...]]) -> None:
    """Insert rows into ``into`` ("table (columns)")."""
    if not rows:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY: several times faster than even a pipelined executemany.
            with cursor.cursor.copy(f"COPY {into} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {into} VALUES ({', '.join(['%s'] * len(rows[0]))})"
        for k in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[k : k + BATCH])


class Command(BaseCommand):
    help = "Bulk-create finished games and moves for the load benchmark."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100_000)
        parser.add_argument("--moves", type=int, default=1_000_000)
        parser.add_argument("--users", type=int, default=200, help="size of the player pool")
        parser.add_argument("--user", default="", help="also seat this user in some games")
        parser.add_argument("--every", type=int, default=100)
        parser.add_argument("--yes", action="store_true", help="fill even a non-empty database")
        parser.add_argument("--title", default="tal", help="the registered title of every game")

    def handle(self, *args, **opts):
        games, moves = opts["games"], opts["moves"]
        if games < 1 or moves < 0:
            raise CommandError("--games must be at least 1 and --moves not negative")
        if Game.objects.exists() and not opts["yes"]:
            raise CommandError("The database already holds games; pass --yes to add more.")
        try:
            kind = registry.get(opts["title"])
        except KeyError:
            raise CommandError(f"There is no title {opts['title']!r}.") from None
        engine = kind.engine
        per_game, extra = divmod(moves, games)
        seed, sample, result = _sample_game(engine, per_game + (1 if extra else 0))
        pool = self._users(opts["users"])
        users = get_user_model().objects
        me = users.filter(username=opts["user"]).first() if opts["user"] else None
        if opts["user"] and me is None:
            raise CommandError(f"There is no user {opts['user']!r}.")
        move_into, move_row = _move_rows(sample)
        rules = engine.rules_version
        now = timezone.now()
        made = 0
        while made < games:
            n = min(BATCH, games - made)
            with transaction.atomic():
                batch = []
                for i in range(made, made + n):
                    count = per_game + (1 if i < extra else 0)
                    start = now - timedelta(days=400, minutes=i)
                    batch.append(
                        Game(
                            kind=kind.slug,
                            title=f"Bench {i}",
                            options={"advanced": False, "expert": False},
                            players=2,
                            rules_version=rules,
                            seed=seed,
                            status=Game.Status.FINISHED,
                            created_by=pool[i % len(pool)],
                            move_count=count,
                            version=count,
                            result=result,
                            started_at=start,
                            finished_at=start + timedelta(days=30),
                        )
                    )
                created = Game.objects.bulk_create(batch)
                seats, rows = [], []
                for k, game in enumerate(created):
                    i = made + k
                    first = pool[i % len(pool)]
                    second = pool[(i * 7 + 1) % len(pool)]
                    if second == first:
                        second = pool[(i + 1) % len(pool)]
                    if me is not None and i % opts["every"] == 0:
                        second = me
                    for number, user in enumerate((first, second)):
                        seats.append(
                            Seat(
                                game=game,
                                user=user,
                                person=user,
                                number=number,
                                ended_at=game.finished_at,
                            )
                        )
                    for number in range(1, game.move_count + 1):
                        rows.append(move_row(game.pk, number))
                Seat.objects.bulk_create(seats, batch_size=BATCH)
                _insert_moves(move_into, rows)
            made += n
            self.stdout.write(f"\r{made}/{games} games", ending="")
            self.stdout.flush()
        if connection.vendor == "postgresql":
            # What autovacuum does on a live site within a minute of such a change: without
            # fresh statistics the planner takes 100,000 games for a handful, and without
            # the vacuum the first reads of the new rows set their hint bits (writes) and
            # autovacuum itself competes with the pages measured next.
            # (VACUUM cannot run in a transaction: in one, as in a test, ANALYZE alone.)
            command = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
            with connection.cursor() as cursor:
                for model in (Game, Seat, Move):
                    cursor.execute(f"{command} {model._meta.db_table}")
        self.stdout.write(f"\n{games} games and {moves} moves added.")

    def _users(self, count: int) -> list:
        User = get_user_model()
        existing = list(User.objects.filter(username__startswith="benchpool").order_by("pk"))
        missing = [
            User(username=f"benchpool{i}", email=f"benchpool{i}@example.invalid")
            for i in range(len(existing), count)
        ]
        for user in missing:
            user.set_unusable_password()
        User.objects.bulk_create(missing)
        return list(User.objects.filter(username__startswith="benchpool").order_by("pk"))
