"""Databases of their own for the deploy tests, and manage.py run against them.

The deploy scripts and commands run as an operator runs them: in a process of their own,
told where the database is by DATABASE_URL. Each test makes its databases beside the test
database (same server, same role) and drops them at the end.
"""

import os
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

ROOT = Path(settings.BASE_DIR)


def on_postgresql() -> bool:
    return connection.vendor == "postgresql"


def _url(name: str) -> str:
    db = settings.DATABASES["default"]
    auth = quote(db["USER"], safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = db.get("HOST") or "localhost"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{name}"


def _admin(sql: str) -> None:
    # CREATE/DROP DATABASE run outside a transaction, on the server's maintenance database.
    import psycopg

    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        admin.execute(sql)


@contextmanager
def fresh_postgres_database():
    """The URL of a new, empty PostgreSQL database, dropped afterwards."""
    name = f"{settings.DATABASES['default']['NAME']}_{uuid.uuid4().hex[:8]}"
    # From template0: no session ever holds it, as one may template1 (another test's
    # CREATE DATABASE), which would fail this one.
    _admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield _url(name)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a process of the site on ``database_url``, with no Redis (a
    cache or broker shared with the tests would mix their data)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(DATABASE_URL=database_url, REDIS_URL="", LIVE_KEEPER="0", DEBUG="1")
    env.update(extra)
    return env


def manage(database_url: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment(database_url),
        capture_output=True,
        text=True,
        check=check,
        timeout=600,
    )
