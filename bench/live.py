"""Live updates under load (issue 28): open streams against the 4-second poll.

Usage: .venv/bin/python bench/live.py [--streams 200,1000,2000] [--games 5]
       [--watchers 20] [--seconds 20] [--idle 30] [--poll-tabs 200] [--workers 2]
       [--round-trips 30] [--round-trip-only]

Starts the production shape on 127.0.0.1 itself: gunicorn with ``--workers`` uvicorn
workers serving ``config.asgi`` (DEBUG off), on PostgreSQL and Redis when DATABASE_URL
and REDIS_URL are set (a database and keys of its own, removed at the end, as
``site_load.py`` makes them), on the embedded defaults otherwise (SQLite, and the
in-process hub: with two processes, a change made in one reaches the other's streams
through ``live.keeper``, within two seconds). Seeds ``--games`` Tal games that a player
moves in once a second each, ``--watchers`` signed-in spectators per moving game, and
idle games whose two players have them open; then, in one run:

- before, the poll: the watchers poll every 4 s (random phases) while the moves go on,
  and ``--poll-tabs`` players poll their idle games: update latency (commit of a move
  -> a poll answer that shows it), server CPU per idle tab-minute;
- after, for each K of ``--streams``: K idle streams (players on their idle games)
  plus the watchers' streams while the moves go on: update latency (commit -> event
  received in every watching stream), lost events; then ``--idle`` seconds with no
  move: server CPU per idle tab-minute, and memory per open stream (RSS of the app
  processes with the K streams open, less before);
- an app server restart: a worker is killed mid-game (gunicorn starts another); its
  streams reconnect with Last-Event-ID, as a browser does, and must all reach the last
  version within 10 s;
- the move round trip as the board sends it (htmx, the new board drawn) against the
  same move answered in JSON, alternating, with nothing else running.

The commit time of each change is logged by the app processes (``config.settings_bench``:
``games.signals.changed`` fires right after the commit) and compared with the time a
stream (or a poll) received it, on the same machine's clock. "Server CPU" is the user and
system time of the gunicorn processes and, on PostgreSQL, of the backends serving the
bench's database (not Redis's, which other work shares). The client runs on the same
two cores. Figures are printed against the goals of the issue, met or not.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import site_load  # noqa: E402  (the database, the seeding of Tal games)
from shape import children, cpu_seconds, rss_kb  # noqa: E402

POLL_SECONDS = 4.0


# --------------------------------------------------------------------------- seeding


@dataclass
class Site:
    cookies: dict[int, str]  # user pk -> Cookie header
    csrf: str
    moving: list  # the games moved in, once a second each
    plans: list[list[tuple[int, dict, str]]]  # per moving game: (seat, action, token)
    seat_users: list[dict[int, object]]
    watchers: list[tuple[int, int]]  # (user pk, moving game pk)
    idle: list[tuple[int, int]]  # (user pk, idle game pk): seated players
    positions: list[int] = field(default_factory=list)


def seed(args) -> Site:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from accounts.models import User
    from games import replay
    from games.models import Game, Seat
    from tal.engine import ENGINE as TAL

    rng = random.Random(28)
    players = [User.objects.create_user(f"mover{i}", f"mover{i}@example.invalid") for i in (0, 1)]
    moving = [site_load.tal_game(players, 10, rng) for _ in range(args.games)]
    plans, seat_users = [], []
    for game in moving:
        state = replay.current_state(game)
        plan = site_load.plan_moves(state, args.plan, rng)
        plans.append(site_load.with_tokens(state, plan))
        seat_users.append({s.number: s.user for s in game.seats.all()})

    # Viewers: a spectator account per watching stream, two players per idle game.
    idle_players = max(max(args.streams), args.poll_tabs)
    idle_players += idle_players % 2
    count = args.games * args.watchers + idle_players
    User.objects.bulk_create(
        [User(username=f"viewer{i}", email=f"viewer{i}@example.invalid") for i in range(count)],
        batch_size=1000,
    )
    viewers = list(User.objects.filter(username__startswith="viewer").order_by("pk"))
    now = timezone.now()
    games = Game.objects.bulk_create(
        [
            Game(
                kind="tal",
                title=f"Idle {i}",
                players=2,
                rules_version=TAL.rules_version,
                status=Game.Status.ACTIVE,
                version=1,
                started_at=now,
                last_move_at=now,
                created_by=viewers[0],
            )  # fmt: skip
            for i in range(idle_players // 2)
        ],
        batch_size=1000,
    )
    seated = viewers[args.games * args.watchers :]
    Seat.objects.bulk_create(
        [
            Seat(game=games[i // 2], user=user, person=user, number=i % 2)
            for i, user in enumerate(seated)
        ],
        batch_size=1000,
    )
    if not games[0].pk:  # backends that do not return keys from bulk_create
        games = list(Game.objects.filter(title__startswith="Idle ").order_by("pk"))
    csrf = secrets.token_hex(16)
    sessions, cookies = [], {}
    for user in [*players, *viewers]:
        key = secrets.token_hex(16)
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        expire = now + timezone.timedelta(days=1)
        sessions.append(Session(session_key=key, session_data=SessionStore().encode(data),
                                expire_date=expire))  # fmt: skip
        cookies[user.pk] = f"sessionid={key}; csrftoken={csrf}"
    Session.objects.bulk_create(sessions, batch_size=1000)
    watchers = [
        (viewers[g * args.watchers + w].pk, moving[g].pk)
        for g in range(args.games)
        for w in range(args.watchers)
    ]
    idle_games = {g.title: g.pk for g in Game.objects.filter(title__startswith="Idle ")}
    idle = [(user.pk, idle_games[f"Idle {i // 2}"]) for i, user in enumerate(seated)]
    return Site(cookies, csrf, moving, plans, seat_users, watchers, idle, [0] * len(moving))


# --------------------------------------------------------------------------- the server


def start_server(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    with log.open("a") as out:
        proc = subprocess.Popen(
            [str(gunicorn), "config.asgi:application", "--worker-class",
             "uvicorn_worker.UvicornWorker", "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120",
             "--backlog", "4096"],
            cwd=ROOT, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn did not start:\n{log.read_text()[-3000:]}")
        if len(children(proc.pid)) == workers:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    return proc
            except OSError:
                pass
            finally:
                conn.close()
        time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("gunicorn did not answer within 60 s")


class Meter:
    """CPU seconds of the app processes and (PostgreSQL) the backends of the bench's
    database between ``start`` and ``stop``."""

    def __init__(self, proc: subprocess.Popen, database: str | None, admin_url: str | None):
        self.proc, self.database, self.admin_url = proc, database, admin_url

    def pids(self) -> list[int]:
        pids = [self.proc.pid, *children(self.proc.pid)]
        if self.database and self.admin_url:
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                rows = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]
                ).fetchall()
            pids += [row[0] for row in rows]
        return pids

    def start(self) -> None:
        self.before = {pid: cpu_seconds(pid) for pid in self.pids()}
        self.started = time.monotonic()

    def stop(self) -> tuple[float, float]:
        """(CPU seconds used, wall seconds)."""
        used = 0.0
        for pid in set(self.pids()) | set(self.before):
            used += cpu_seconds(pid) - self.before.get(pid, 0.0)
        return used, time.monotonic() - self.started


# --------------------------------------------------------------------------- the clients


class Arrivals:
    """What each watching page (stream or poller) was told: (version, when) in order.
    A page that is told version 12 shows every move up to 12: when moves come faster
    than a poll (or, without Redis, than the keeper's round), the page skips a version
    and still shows its move."""

    def __init__(self) -> None:
        self.pages: list[tuple[int, list[tuple[int, float]]]] = []

    def page(self, game: int) -> list[tuple[int, float]]:
        told: list[tuple[int, float]] = []
        self.pages.append((game, told))
        return told


class EventStream:
    """One stream, read as a browser's EventSource reads it (reconnecting with
    Last-Event-ID when the server ends it, if ``reconnect``)."""

    def __init__(self, port: int, game: int, cookie: str, arrivals: Arrivals | None):
        self.port, self.game, self.cookie = port, game, cookie
        self.told = arrivals.page(game) if arrivals is not None else None
        self.status = 0
        self.last_id: str | None = None
        self.version = 0
        self.retry = 3.0
        self.reconnect = False
        self.reconnects = 0
        self.writer = None
        self.task: asyncio.Task | None = None

    async def open(self) -> int:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = [f"GET /g/{self.game}/live HTTP/1.1", "Host: 127.0.0.1",
                "Accept: text/event-stream", f"Cookie: {self.cookie}"]  # fmt: skip
        if self.last_id:
            head.append(f"Last-Event-ID: {self.last_id}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
        status = await reader.readline()
        self.status = int(status.split()[1]) if status else 0
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        if self.status == 200:
            self.task = asyncio.get_running_loop().create_task(self.read(reader))
        else:
            self.writer.close()
        return self.status

    async def read(self, reader) -> None:
        buffer = b""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await reader.readexactly(size + 2))[:-2]
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.event(block.decode(), time.time())
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        self.writer.close()
        if self.reconnect:
            await asyncio.sleep(self.retry)
            self.reconnects += 1
            while self.reconnect:
                try:
                    if await self.open() == 200:
                        return
                except OSError:
                    pass
                await asyncio.sleep(1)

    def event(self, block: str, at: float) -> None:
        fields = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        if "retry" in fields:
            self.retry = int(fields["retry"]) / 1000
        if "id" in fields:
            self.last_id = fields["id"]
        if fields.get("event") == "game":
            version = int(fields["data"].split()[0])
            self.version = max(self.version, version)
            if self.told is not None:
                self.told.append((version, at))

    def close(self) -> None:
        self.reconnect = False
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


class Loop:
    """An asyncio loop in a thread of its own, for the streams and the pollers."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 600):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


async def open_streams(port: int, specs: list[tuple[int, str, Arrivals | None]]) -> list:
    """Open the streams 100 at a time; (game, cookie, arrivals) each."""
    streams = [EventStream(port, game, cookie, arrivals) for game, cookie, arrivals in specs]
    for start in range(0, len(streams), 100):
        await asyncio.gather(*(s.open() for s in streams[start : start + 100]))
    return streams


class Pollers:
    """Tabs polling every 4 s as the page does (keep-alive connections, random phases):
    ``arrivals`` records when each new version showed in an answer."""

    POLL_V = re.compile(rb"/poll\?v=(\d+)&amp;c=(\d+)")

    def __init__(self, port, tabs: list[tuple[int, str]], arrivals: Arrivals | None):
        self.port, self.tabs, self.arrivals = port, tabs, arrivals
        self.requests = 0
        self.stopping = False

    async def run(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        await asyncio.gather(*(self.tab(game, cookie, end) for game, cookie in self.tabs))

    async def tab(self, game: int, cookie: str, end: float) -> None:
        from_version, chat, first = 0, 0, True
        told = self.arrivals.page(game) if self.arrivals is not None else None
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        connection = None
        while time.monotonic() < end:
            started = time.monotonic()
            path = f"/g/{game}/poll?v={from_version}&c={chat}"
            request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
                       "HX-Request: true\r\n\r\n").encode()  # fmt: skip
            for _attempt in range(2):  # a keep-alive connection the server closed: anew
                if connection is None:
                    connection = await asyncio.open_connection("127.0.0.1", self.port)
                try:
                    status, body = await self.exchange(*connection, request)
                    break
                except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
                    connection[1].close()
                    connection = None
            else:
                raise RuntimeError(f"a poll of game {game} failed twice")
            at = time.time()
            self.requests += 1
            if status == 200 and (found := self.POLL_V.search(body)):
                version, chat = int(found.group(1)), int(found.group(2))
                if told is not None and not first:
                    told.append((version, at))
                from_version = version
            first = False
            await asyncio.sleep(max(0.0, POLL_SECONDS - (time.monotonic() - started)))
        if connection is not None:
            connection[1].close()

    @staticmethod
    async def exchange(reader, writer, request: bytes) -> tuple[int, bytes]:
        writer.write(request)
        status = int((await reader.readline()).split()[1])
        length, chunked = 0, False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
            elif name.lower() == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
        if not chunked:
            return status, await reader.readexactly(length) if length else b""
        body = b""
        while size := int((await reader.readline()).strip(), 16):
            body += (await reader.readexactly(size + 2))[:-2]
        await reader.readline()
        return status, body


# --------------------------------------------------------------------------- the mover


class Mover:
    """A player moving once a second in each moving game: the htmx click as the board
    sends it, or (``as_json``) the same move as an API client sends it."""

    def __init__(self, port: int, site: Site) -> None:
        self.port, self.site = port, site
        self.times: dict[str, list[float]] = {"htmx": [], "json": []}

    def move(self, index: int, as_json: bool) -> bool:
        site = self.site
        plan, at = site.plans[index], site.positions[index]
        if at >= len(plan):
            return False
        seat, action, token = plan[at]
        site.positions[index] += 1
        user = site.seat_users[index][seat]
        body = {"version": token, "request_id": secrets.token_hex(12)}
        if as_json:
            body["action"] = action
            data, kind = json.dumps(body), "application/json"
        else:
            body.update(action=json.dumps(action), c="0")
            data, kind = urllib.parse.urlencode(body), "application/x-www-form-urlencoded"
        headers = {"Cookie": site.cookies[user.pk], "X-CSRFToken": site.csrf,
                   "Content-Type": kind, "Accept-Language": "en"}  # fmt: skip
        if not as_json:
            headers["HX-Request"] = "true"
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("POST", f"/g/{site.moving[index].pk}/act", body=data, headers=headers)
            response = conn.getresponse()
            content = response.read()
        finally:
            conn.close()
        if response.status != 200:
            raise RuntimeError(f"a move failed: {response.status} {content[:200]!r}")
        self.times["json" if as_json else "htmx"].append(time.perf_counter() - started)
        return True

    def run(self, seconds: float) -> int:
        """One move per game per second for ``seconds``; how many were made."""
        made, tick = 0, time.monotonic()
        for second in range(int(seconds)):
            for index in range(len(self.site.moving)):
                made += self.move(index, as_json=(second + index) % 2 == 1)
            tick += 1
            time.sleep(max(0.0, tick - time.monotonic()))
        return made


# --------------------------------------------------------------------------- figures


def commits(log: Path) -> dict[tuple[int, int], float]:
    found = {}
    if log.exists():
        for line in log.read_text().splitlines():
            game, version, _chat, at = line.split()
            found.setdefault((int(game), int(version)), float(at))
    return found


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@dataclass
class Latency:
    per_move: list[float]
    per_event: list[float]
    moves: int
    lost: int

    def line(self, label: str) -> str:
        if not self.per_move:
            return f"{label:44} no move measured"
        ms = [1000 * percentile(self.per_move, p) for p in (50, 95, 99)]
        ev = [1000 * percentile(self.per_event, p) for p in (50, 95)]
        return (
            f"{label:44} p50 {ms[0]:6.0f}  p95 {ms[1]:6.0f}  p99 {ms[2]:6.0f} ms"
            f"  (each page: p50 {ev[0]:.0f}, p95 {ev[1]:.0f} ms; {self.moves} moves,"
            f" {self.lost} missed)"
        )


def latency(arrivals: Arrivals, committed: dict, since: float) -> Latency:
    """Per move: its commit -> the moment the last watching page was told it (or a later
    version); a page never told it: missed."""
    pages: dict[int, list[list[tuple[int, float]]]] = {}
    for game, told in arrivals.pages:
        pages.setdefault(game, []).append(told)
    per_move, per_event, moves, lost = [], [], 0, 0
    for (game, version), at in committed.items():
        if at < since or game not in pages:
            continue
        moves += 1
        got = []
        for told in pages[game]:
            first = next((when for v, when in told if v >= version and when >= at), None)
            if first is None:
                lost += 1
            else:
                got.append(first - at)
        per_event += got
        if len(got) == len(pages[game]):
            per_move.append(max(got))
    return Latency(per_move, per_event, moves, lost)


# --------------------------------------------------------------------------- main


def main() -> None:  # noqa: C901  (one run, its phases in order)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", default="200,1000,2000")
    parser.add_argument("--games", type=int, default=5, help="games moved in, 1 move/s each")
    parser.add_argument("--watchers", type=int, default=20, help="streams per moving game")
    parser.add_argument("--seconds", type=float, default=20, help="moving per phase")
    parser.add_argument("--idle", type=float, default=30, help="idle seconds for the CPU")
    parser.add_argument("--poll-tabs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--round-trips", type=int, default=30, help="moves of each kind")
    parser.add_argument("--round-trip-only", action="store_true",
                        help="only the move round trip (no poll, streams or restart)")  # fmt: skip
    args = parser.parse_args()
    args.streams = [int(k) for k in args.streams.split(",")]
    phases = 2 + len(args.streams)
    args.plan = int(args.seconds * phases + 2 * args.round_trips + 20)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(args.streams) * 3 + 1000
    if soft < wanted:  # the client's sockets, and the server's (inherited)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(wanted, soft)), hard))

    tmp = Path(tempfile.mkdtemp(prefix="live-bench-"))
    target = site_load.prepare(tmp)
    log = tmp / "commits.log"
    target.env.update(BENCH_COMMIT_LOG=str(log), CONN_MAX_AGE="60")
    os.environ.update(target.env)
    proc, loop = None, None
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        redis_mode = bool(settings.LIVE_REDIS_URL)
        print(f"Live updates on {target.description}; gunicorn, {args.workers} uvicorn "
              f"workers, {'Redis pub/sub' if redis_mode else 'in-process hubs (no Redis)'}; "
              f"{args.games} games moved in once a second each, {args.watchers} watchers "
              f"each.")  # fmt: skip
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        print("seeding ...")
        site = seed(args)
        port = site_load.free_port()
        proc = start_server(target.env, port, args.workers, tmp / "server.log")
        database = settings.DATABASES["default"]
        postgres = database["ENGINE"].endswith("postgresql")
        meter = Meter(proc, database["NAME"] if postgres else None,
                      os.environ.get("DATABASE_URL") if postgres else None)  # fmt: skip
        loop = Loop()
        mover = Mover(port, site)
        watching = {g.pk: args.watchers for g in site.moving}
        results: dict[str, object] = {}

        if args.round_trip_only:
            round_trip(mover, args, results)
            report_round_trip(args, results)
            return
        # -- before: the poll --------------------------------------------------------
        print("before: the 4-second poll ...")
        arrivals = Arrivals()
        watch_tabs = [(game, site.cookies[user]) for user, game in site.watchers]
        pollers = Pollers(port, watch_tabs, arrivals)
        since = time.time()
        # The pollers go on for a while after the last move: every page gets to see it.
        future = asyncio.run_coroutine_threadsafe(pollers.run(args.seconds + 14), loop.loop)
        time.sleep(POLL_SECONDS)  # every tab has polled once
        mover.run(args.seconds)
        future.result(120)
        results["poll latency"] = latency(arrivals, commits(log), since)
        idle_tabs = [(game, site.cookies[user]) for user, game in site.idle[: args.poll_tabs]]
        idle_pollers = Pollers(port, idle_tabs, None)
        future = asyncio.run_coroutine_threadsafe(
            idle_pollers.run(args.idle + POLL_SECONDS), loop.loop
        )
        time.sleep(POLL_SECONDS)
        meter.start()
        future.result(args.idle + 60)
        used, wall = meter.stop()
        results["poll cpu"] = used / (len(idle_tabs) * wall / 60)
        results["poll rate"] = idle_pollers.requests / (args.idle + POLL_SECONDS)

        # -- after: streams ----------------------------------------------------------
        workers = children(proc.pid)
        for k in args.streams:
            print(f"after: {k} idle streams + {len(site.watchers)} watching ...")
            base_rss = sum(rss_kb(pid) for pid in workers)
            arrivals = Arrivals()
            specs = [(g, site.cookies[u], None) for u, g in site.idle[:k]]
            specs += [(g, site.cookies[u], arrivals) for u, g in site.watchers]
            started = time.monotonic()
            streams = loop.run(open_streams(port, specs))
            opened = time.monotonic() - started
            refused = sum(s.status != 200 for s in streams)
            time.sleep(2)
            rss = sum(rss_kb(pid) for pid in workers)
            since = time.time()
            mover.run(args.seconds)
            time.sleep(2)
            results[f"latency {k}"] = latency(arrivals, commits(log), since)
            meter.start()
            time.sleep(args.idle)
            used, wall = meter.stop()
            results[f"cpu {k}"] = used / (len(streams) * wall / 60)
            results[f"memory {k}"] = (rss - base_rss) / len(streams)
            results[f"open {k}"] = (opened, refused)
            for s in streams:
                loop.loop.call_soon_threadsafe(s.close)
            time.sleep(3)

        # -- an app server restart ---------------------------------------------------
        print("an app server restart ...")
        specs = [(g, site.cookies[u], None) for u, g in site.watchers]
        streams = loop.run(open_streams(port, specs))
        for s in streams:
            s.reconnect = True
        mover.run(args.seconds / 3)
        os.kill(children(proc.pid)[0], signal.SIGKILL)  # between two moves
        mover.run(args.seconds * 2 / 3)
        from games.models import Game

        final = dict(Game.objects.filter(pk__in=watching).values_list("pk", "version"))
        started = time.monotonic()
        while (behind := [s for s in streams if s.version < final[s.game]]) and (
            time.monotonic() - started < 10
        ):
            time.sleep(0.1)
        took = time.monotonic() - started
        results["restart"] = (len(behind), sum(s.reconnects for s in streams), took)
        for s in streams:
            loop.loop.call_soon_threadsafe(s.close)

        round_trip(mover, args, results)
        report(args, results, len(watch_tabs))
    finally:
        if loop is not None:
            loop.stop()
        if proc is not None:
            proc.terminate()
            proc.wait(30)
        from django.db import connections

        connections.close_all()
        target.close()
        shutil.rmtree(tmp, ignore_errors=True)


def round_trip(mover: Mover, args, results: dict) -> None:
    print("the move round trip, htmx against JSON ...")
    mover.times = {"htmx": [], "json": []}
    for i in range(args.round_trips * 2):
        mover.move(0, as_json=i % 2 == 1)
    results["round trip"] = (
        statistics.median(mover.times["htmx"]),
        statistics.median(mover.times["json"]),
    )


def report_round_trip(args, r: dict) -> None:
    htmx, as_json = r["round trip"]
    ratio = as_json / htmx
    met = "met" if ratio >= 0.6 else "MISSED"
    print(f"\nmove round trip, median of {args.round_trips} each: htmx (new board) "
          f"{htmx * 1000:.1f} ms, JSON {as_json * 1000:.1f} ms: htmx at {ratio:.2f} x JSON's "
          f"rate; goal >= 0.6: {met}")  # fmt: skip


def report(args, r: dict, watchers: int) -> None:
    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print("\nupdate latency, commit of a move -> received by every watching page "
          f"({watchers} pages on {args.games} games; each page: commit -> that one):")  # fmt: skip
    print(r["poll latency"].line("before: the 4-second poll"))
    for k in args.streams:
        print(r[f"latency {k}"].line(f"after: streams, {k} idle streams open"))
    top = r[f"latency {max(args.streams)}"]
    if top.per_move:
        p95 = percentile(top.per_move, 95) * 1000
        print(f"  goal: p95 <= 250 ms with {max(args.streams)} open streams: {p95:.0f} ms, "
              f"{verdict(p95 <= 250 and top.lost == 0)}")  # fmt: skip
    print("\nserver CPU per idle tab-minute (app processes + PostgreSQL backends):")
    poll = r["poll cpu"]
    print(f"  before: the 4-second poll, {args.poll_tabs} tabs "
          f"({r['poll rate']:.0f} requests/s)       {poll * 1000:8.2f} ms")  # fmt: skip
    for k in args.streams:
        cpu = r[f"cpu {k}"]
        print(f"  after: {k + watchers} open streams{'':21} {cpu * 1000:8.2f} ms"
              f"   1/{poll / cpu if cpu else float('inf'):.0f} of polling's")  # fmt: skip
    worst = max(r[f"cpu {k}"] for k in args.streams)
    print(f"  goal: <= 1/20 of polling's: 1/{poll / worst if worst else float('inf'):.0f}, "
          f"{verdict(worst * 20 <= poll)}")  # fmt: skip
    print("\nmemory per open stream (RSS of the app processes, with the streams less before):")
    for k in args.streams:
        opened, refused = r[f"open {k}"]
        print(f"  {k + watchers} streams: {r[f'memory {k}']:6.1f} KB each "
              f"(opened in {opened:.1f} s, {refused} refused)")  # fmt: skip
    behind, reconnects, took = r["restart"]
    print(f"\napp server restart (a worker killed mid-game): {reconnects} streams reconnected "
          f"with Last-Event-ID; {behind} still behind the last version after 10 s "
          f"(caught up in {took:.1f} s): {verdict(behind == 0 and took <= 10)}")  # fmt: skip
    report_round_trip(args, r)


if __name__ == "__main__":
    main()
