"""The production shape on 127.0.0.1, for the benchmarks that start it themselves
(``soak.py``, ``capacity.py``; ``live.py`` reads processes' CPU with it): a PostgreSQL
database of their own, a redis-server of their own, gunicorn with uvicorn workers and
Celery workers, each a process group that is started, killed and stopped again; and
the CPU of processes and their threads read from /proc.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
BIN = Path(sys.executable).parent
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


class Service:
    """A process group of ours: started, SIGKILLed, started again."""

    def __init__(self, name: str, argv: list[str], env: dict, log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def pids(self) -> list[int]:
        """Every process of the group (gunicorn's workers, Celery's pool)."""
        if self.proc is None or self.proc.poll() is not None:
            return []
        return group_members(self.proc.pid)


def wait_port(port: int, seconds: float, path: str = "") -> None:
    end = time.time() + seconds
    while time.time() < end:
        try:
            if path:
                if requests.get(f"http://127.0.0.1:{port}{path}", timeout=3).status_code < 500:
                    return
            else:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return
        except (OSError, requests.RequestException):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"nothing answered on port {port} within {seconds:.0f} s")


def create_database(url: str, suffix: str):
    """A database of our own beside the one ``url`` names (dropped first if a run left
    it): (autocommit connection to the server's ``postgres`` database, the new
    database's URL, its name). Exits when ``url`` is not PostgreSQL's."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        sys.exit(
            "this benchmark needs DATABASE_URL of a PostgreSQL server (role may CREATE DATABASE)"
        )
    name = parts.path.lstrip("/") + suffix
    # The server's own database for CREATE and DROP: the one named may not exist yet.
    admin = psycopg.connect(
        urllib.parse.urlunsplit(parts._replace(path="/postgres")), autocommit=True
    )
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    return admin, urllib.parse.urlunsplit(parts._replace(path="/" + name)), name


def redis_argv(port: int, directory: Path) -> list[str]:
    """A redis-server without persistence."""
    return ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", str(directory)]  # fmt: skip


def gunicorn_argv(app: str, port: int, workers: int, *extra: str) -> list[str]:
    """gunicorn with uvicorn workers serving ``app`` on 127.0.0.1:``port``."""
    return [str(BIN / "gunicorn"), app, "-k", "uvicorn_worker.UvicornWorker",
            "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--timeout", "60",
            "--log-level", "warning", *extra]  # fmt: skip


def celery_argv(*args: str) -> list[str]:
    return [PYTHON, "-m", "celery", "-A", "config", *args]


# --------------------------------------------------------------------------- /proc


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def group_members(group: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == group:
                    found.append(int(entry))
            except OSError:
                continue
    return found


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User and system CPU of a process (or of one of its threads)."""
    path = f"/proc/{pid}/task/{thread}/stat" if thread else f"/proc/{pid}/stat"
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def machine_cpu() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine since boot (every core)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / CLOCK_TICK, sum(fields[:8]) / CLOCK_TICK
