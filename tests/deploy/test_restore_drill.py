"""The restore drill: a backup made by deploy/backup.sh, restored by deploy/restore.sh into
a fresh database, is the site it was: replays clean, the same rows in every table, the
same id counters, a game page drawn the same.

On PostgreSQL when DATABASE_URL names it and pg_dump is installed, else on SQLite.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import need_service

from .databases import ROOT, environment, fresh_postgres_database, manage, on_postgresql

pytestmark = pytest.mark.django_db


def script(name: str, database_url: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ROOT / "deploy" / name), *args],
        cwd=ROOT,
        env=environment(database_url, **env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def snapshot(database_url: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "tests.deploy.snapshot"],
        cwd=ROOT,
        env=environment(database_url),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(done.stdout)


def drill(source: str, target: str, folder) -> None:
    manage(source, "migrate", "-v", "0")
    manage(source, "demo", "--moves", "20")

    backup = script("backup.sh", source, str(folder), BACKUP_KEEP_DAYS="7")
    assert backup.returncode == 0, backup.stderr
    dump = backup.stdout.strip().splitlines()[-1]
    assert dump.startswith(str(folder)) and not dump.endswith(".partial")
    # After the backup: drawing the page signs its viewer in, a session row.
    before = snapshot(source)

    restored = script("restore.sh", target, dump)
    assert restored.returncode == 0, restored.stderr
    assert manage(target, "migrate", "--check", check=False).returncode == 0
    replays = manage(target, "check_replays", check=False)
    assert replays.returncode == 0, replays.stdout + replays.stderr

    after = snapshot(target)
    assert after["rows"] == before["rows"]
    assert after["sequences"] == before["sequences"]
    assert after["page"] == before["page"]
    assert sum(before["rows"].values()) > 0 and "board" in before["page"]

    # A second restore into the same database would mix with what is there: refused.
    again = script("restore.sh", target, dump)
    assert again.returncode == 3 and manage(target, "check_replays", check=False).returncode == 0


def test_restore_drill(tmp_path):
    if on_postgresql():
        need_service(shutil.which("pg_dump") is not None, "pg_dump and pg_restore")
        with fresh_postgres_database() as source, fresh_postgres_database() as target:
            drill(source, target, tmp_path / "backups")
    else:
        source = f"sqlite:///{tmp_path / 'site.sqlite3'}"
        target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        drill(source, target, tmp_path / "backups")


def test_backups_older_than_the_kept_days_are_deleted(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    old, recent = folder / "pbw-2020-01-01T000000Z.sqlite3", folder / "pbw-recent.sqlite3"
    for path, days in ((old, 8), (recent, 6)):
        path.write_bytes(b"x")
        stamp = path.stat().st_mtime - days * 24 * 3600
        os.utime(path, (stamp, stamp))
    source = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    manage(source, "migrate", "-v", "0")
    done = script("backup.sh", source, str(folder), BACKUP_KEEP_DAYS="7")
    assert done.returncode == 0, done.stderr
    assert not old.exists() and recent.exists()
    assert len(list(folder.glob("pbw-*.sqlite3"))) == 2
