"""``migrate`` under a PostgreSQL advisory lock: one deploy's migrations run once.

Several containers may start a deploy at the same moment (the compose stack's one-off
``migrate`` service, run again by hand, or two web replicas told to migrate): two plain
``migrate`` runs on one database race to create the same tables and one of them fails
half way. Here the second waits for the first to finish, then finds nothing left to do.
The lock belongs to the database session, so a run that dies releases it with its
connection. SQLite has no such lock and needs none: one file, one host.
"""

import zlib

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connections

# Any 64-bit number the site uses for nothing else: this one is derived from a name.
LOCK_KEY = zlib.crc32(b"pbw: manage.py migrate_locked")


class Command(BaseCommand):
    help = "Run migrate, waiting for any other run of this command on the same database."

    def add_arguments(self, parser):
        parser.add_argument("--database", default="default")

    def handle(self, *args, **options):
        alias = options["database"]
        connection = connections[alias]
        verbosity = options["verbosity"]
        if connection.vendor != "postgresql":
            call_command("migrate", database=alias, interactive=False, verbosity=verbosity)
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOCK_KEY])
            if not cursor.fetchone()[0]:
                self.stdout.write("Another migrate holds the lock; waiting for it to finish.")
                self.stdout.flush()
                cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        try:
            call_command("migrate", database=alias, interactive=False, verbosity=verbosity)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
