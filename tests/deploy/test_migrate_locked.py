"""Migrations run once per deploy: two containers starting together do not race."""

import subprocess
import sys
import time

import pytest

from games.management.commands.migrate_locked import LOCK_KEY
from tests.conftest import need_service

from .databases import ROOT, environment, fresh_postgres_database, manage, on_postgresql

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_url():
    need_service(on_postgresql(), "PostgreSQL (DATABASE_URL)")
    with fresh_postgres_database() as url:
        yield url


def start_migrate(database_url):
    return subprocess.Popen(
        [sys.executable, "manage.py", "migrate_locked", "-v", "1"],
        cwd=ROOT,
        env=environment(database_url),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def all_applied(database_url) -> bool:
    return manage(database_url, "migrate", "--check", check=False).returncode == 0


def test_two_migrate_runs_at_once_both_succeed_and_migrate_the_database(database_url):
    runs = [start_migrate(database_url) for _ in range(2)]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert any("waiting for it to finish" in output for output in outputs), outputs
    assert all_applied(database_url)


def test_a_migrate_waits_while_another_holds_the_lock(database_url):
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        run = start_migrate(database_url)
        assert run.stdout.readline().startswith("Another migrate holds the lock")
        time.sleep(1)
        assert run.poll() is None
        tables = holder.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchone()[0] == 0
        holder.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
        output = run.communicate(timeout=300)[0]
    assert run.returncode == 0, output
    assert all_applied(database_url)


def test_on_sqlite_it_is_a_plain_migrate(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    manage(url, "migrate_locked", "-v", "0")
    assert all_applied(url)
