"""Capacity (issue 46): how many connected players one machine holds.

Usage: DATABASE_URL=postgres://... .venv/bin/python bench/capacity.py [--quick]
       [--steps 1000,2000,...] [--hold 60] [--app-workers 2] [--port-base 25200] [--keep]

``--quick`` (``make bench``): steps of 150, 300 and 600 players held 25 s each, all
three whatever the first gave (``--all-steps``), about three minutes in all. The full
run ramps 1,000 ... 12,000 players (60 s a step); it stops at the first step that
misses a ramp goal.

What it starts, all on 127.0.0.1 (ports from ``--port-base``), all stopped at the end:
a PostgreSQL database of its own (``<DATABASE_URL's database>_capacity``, created,
migrated and dropped again), a redis-server of its own, gunicorn with ``--app-workers``
uvicorn workers serving ``config.asgi`` (DEBUG off, ``config.settings_bench``; through
``bench/capacity_app.py``, which times each request's work by kind), two Celery
workers and beat (``bench/shape.py`` starts them, as for ``bench/soak.py``).

Who plays: accounts made here, each seated in three King of Siam games of two
players (games and sessions written in bulk), and spectators (accounts in no game).
The load generator (``bench/capacity_load.py``) runs in a process of its own: every
connected player keeps one live stream open and, in real time (no compression):

  a page view every ``--page-every`` s (180: 3 minutes) -- one of their own games
      (50 %), a game they watch (20 %), the lobby (20 %), My games (10 %) -- and the
      page's stream opened in place of the last one;
  a move every ``--move-every`` s (300) in one of their games where it is their turn
      (going to its page first if another is open): the htmx move as the board sends it;
  a chat line every ``--chat-every`` s (900) on the game page they have open;
  leaving after ``--session`` s on average (1200), when another player comes (the lobby
      and its stream);
  ``--spectators`` of the players (10 %) watch games others play (the games moved in
      lately), a page every 3 minutes, and never move.

What the pages' script does on an event, the players do: fetch the change
(``/g/N/live/changes``) and the badge (``/live/badge``). So at N players the site gets
N/180 page views and as many streams opened, N x 0.9/300 moves, N x 0.9/900 chat lines
and N/1200 arrivals per second, and the fetches their events cause.

The ramp: each step connects the players it adds (on their lobby's stream, at
``--ramp-rate`` a second), lets them settle, then holds ``--hold`` seconds, measured.
A step is held when p95 of the page views <= 300 ms, of the moves <= 300 ms and of
the updates <= 500 ms (an update: from a move's answer to the event in the streams of
the game's other open pages; 0 when the event came first). The figures name the
highest step held, and where the time went at that step: CPU per process and per kind
of request (the threads' CPU clocks, ``capacity_app.py``), the app processes' event
loops, SQL time per kind and PostgreSQL's ``active_time``, Redis's commands, and the
hub (streams, publishes, messages told). Each step's goals of issue 46 item 2 (p95 page
<= 150, move <= 250, update <= 250 ms) are printed beside it, met or not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import shape  # noqa: E402
from soak_sinks import port_free  # noqa: E402

RAMP_GOALS = {"pages": 300, "move": 300, "updates": 500}
GOALS = {"pages": 150, "move": 250, "updates": 250}  # issue 46 item 2, at 10,000 players
GAMES_PER_PLAYER = 3


class Capacity:
    def __init__(self, args) -> None:
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="capacity-"))
        base = args.port_base
        self.redis_port, self.app_port = base, base + 1
        for port in (self.redis_port, self.app_port):
            if not port_free(port):
                sys.exit(f"port {port} is in use: choose another --port-base")
        self.services: dict[str, shape.Service] = {}
        self.admin = None
        self.db_name = ""
        self.generator: subprocess.Popen | None = None

    # ---- setting up

    def setup(self) -> None:
        self.admin, database_url, self.db_name = shape.create_database(
            self.args.database_url, "_capacity"
        )
        secret = secrets.token_urlsafe(40)
        timing = self.tmp / "timing"
        timing.mkdir()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings_bench",
            "DEBUG": "0",
            "SECRET_KEY": secret,
            "SECURE_SSL_REDIRECT": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": database_url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "EMAIL_URL": "dummymail://",
            "SITE_URL": f"http://127.0.0.1:{self.app_port}",
            "LOG_LEVEL": "WARNING",
            "BENCH_STATIC_ROOT": str(self.tmp / "static"),
            "BENCH_TIMING_DIR": str(timing),
            # Every player's streams are theirs alone here; the cap is not what is measured.
            "LIVE_STREAMS_PER_USER": "4",
        }
        for name in ("ASGI_THREADS", "CONN_MAX_AGE", "REDIS_MAX_CONNECTIONS"):
            if getattr(self.args, name.lower()) is not None:
                self.env[name] = str(getattr(self.args, name.lower()))
        os.environ.update({k: v for k, v in self.env.items() if k != "BENCH_TIMING_DIR"})
        import django

        django.setup()
        from django.core.management import call_command

        self.services["redis"] = shape.Service(
            "redis", shape.redis_argv(self.redis_port, self.tmp), self.env, self.tmp / "redis.log"
        )
        self.services["redis"].start()
        print(f"migrating {self.db_name}, collecting static files ...", flush=True)
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        self.timing = timing

    def start_site(self) -> None:
        args = self.args
        self.services["app"] = shape.Service(
            "app",
            shape.gunicorn_argv(
                "capacity_app:application",
                self.app_port,
                args.app_workers,
                "--pythonpath",
                str(ROOT / "bench"),
                "--backlog",
                "4096",
            ),
            self.env,
            self.tmp / "app.log",
        )
        for i in (1, 2):
            self.services[f"worker{i}"] = shape.Service(
                f"worker{i}",
                shape.celery_argv(
                    "worker",
                    "-Q",
                    "celery,pings",
                    "-n",
                    f"capacity{i}@%h",
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "WARNING",
                ),  # fmt: skip
                self.env,
                self.tmp / f"worker{i}.log",
            )
        self.services["beat"] = shape.Service(
            "beat",
            shape.celery_argv(
                "beat", "-s", str(self.tmp / "beat-schedule"), "--loglevel", "WARNING"
            ),  # fmt: skip
            self.env,
            self.tmp / "beat.log",
        )
        for name, service in self.services.items():
            if name != "redis":
                service.start()
        shape.wait_port(self.app_port, 90, "/")
        print(
            f"up: gunicorn ({args.app_workers} uvicorn workers), 2 Celery workers, beat,"
            f" redis-server, PostgreSQL database {self.db_name}",
            flush=True,
        )

    def seed(self, people: int, spectators: int) -> dict:
        """Accounts with sessions; each player in three two-seat King of Siam games, as
        started games are (seats numbered, the seat to move marked)."""
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore
        from django.contrib.sessions.models import Session
        from django.utils import timezone

        from accounts.models import User
        from games.models import Game, Seat
        from siam.engine import ENGINE

        rng = random.Random(self.args.seed)
        now = timezone.now()
        total = people + spectators
        User.objects.bulk_create(
            [
                User(
                    username=f"cap{i}",
                    email=f"cap{i}@example.invalid",
                    password="!",
                    display_name=f"Player {i}",
                    language="en",
                )
                for i in range(total)
            ],
            batch_size=2000,
        )
        users = list(User.objects.filter(username__startswith="cap").order_by("pk"))
        users.sort(key=lambda u: int(u.username[3:]))
        pairs = []
        for _round in range(GAMES_PER_PLAYER):
            order = list(range(people))
            rng.shuffle(order)
            pairs += [(order[i], order[i + 1]) for i in range(0, people - 1, 2)]
        seeds = [rng.randrange(2**62) for _ in pairs]
        games = Game.objects.bulk_create(
            [
                Game(
                    kind="siam",
                    title=f"Capacity {n}",
                    options={"map": "siam"},
                    players=2,
                    rules_version=ENGINE.rules_version,
                    seed=seeds[n],
                    status=Game.Status.ACTIVE,
                    version=2,
                    started_at=now,
                    last_move_at=now,
                    deadline=now + timezone.timedelta(days=3),
                    created_by=users[a],
                )
                for n, (a, _b) in enumerate(pairs)
            ],
            batch_size=2000,
        )
        seats = []
        described = {}
        mine = defaultdict(list)
        for game, (a, b), seed in zip(games, pairs, seeds, strict=True):
            active = ENGINE.active_seats(ENGINE.setup(2, {"map": "siam"}, seed))
            for number, index in enumerate((a, b)):
                seats.append(
                    Seat(
                        game=game,
                        user=users[index],
                        person=users[index],
                        number=number,
                        to_move=number in active,
                        to_move_since=now if number in active else None,
                    )
                )
                mine[index].append(game.pk)
            described[str(game.pk)] = {"seed": seed, "seats": [a, b]}
        Seat.objects.bulk_create(seats, batch_size=2000)
        csrf = secrets.token_hex(16)
        sessions, cookies = [], []
        store = SessionStore()
        for user in users:
            key = secrets.token_hex(16)
            data = {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            sessions.append(
                Session(
                    session_key=key,
                    session_data=store.encode(data),
                    expire_date=now + timezone.timedelta(days=1),
                )
            )
            cookies.append(f"sessionid={key}; csrftoken={csrf}")
        Session.objects.bulk_create(sessions, batch_size=2000)
        # Statistics as a running site has them: planned on an empty table's, the
        # lists' user lookups scanned the whole table.
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        return {
            "csrf": csrf,
            "games": described,
            "people": [
                {"cookie": cookies[i], "games": mine.get(i, []), "spectator": i >= people}
                for i in range(total)
            ],
        }

    # ---- the meters

    def processes(self) -> dict[str, list[int]]:
        """Process ids by role (the app workers apart from their master)."""
        app = self.services["app"]
        master = app.proc.pid if app.proc else 0
        roles = {
            "app workers": [p for p in app.pids() if p != master],
            "app master": [master],
            "celery workers": self.services["worker1"].pids() + self.services["worker2"].pids(),
            "beat": self.services["beat"].pids(),
            "redis": self.services["redis"].pids(),
            "load generator": [self.generator.pid] if self.generator else [],
        }
        rows = self.admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.db_name]
        ).fetchall()
        roles["postgres"] = [row[0] for row in rows]
        return roles

    def snapshot(self) -> dict:
        import redis

        cpu = {}
        for role, pids in self.processes().items():
            cpu[role] = {pid: shape.cpu_seconds(pid) for pid in pids}
        # The app workers' event loops: their main threads.
        loops = {pid: shape.cpu_seconds(pid, pid) for pid in cpu["app workers"]}
        timing = {}
        for path in self.timing.glob("*.json"):
            try:
                timing[path.stem] = json.loads(path.read_text())
            except (OSError, ValueError):
                pass
        row = self.admin.execute(
            "SELECT xact_commit, xact_rollback, active_time, blks_read, blks_hit,"
            " tup_returned, tup_fetched, tup_inserted, tup_updated"
            " FROM pg_stat_database WHERE datname = %s",
            [self.db_name],
        ).fetchone()
        client = redis.Redis(port=self.redis_port)
        commands = client.info("commandstats")
        return {
            "at": time.monotonic(),
            "machine": shape.machine_cpu(),
            "cpu": cpu,
            "loops": loops,
            "timing": timing,
            "pg": row,
            "redis": commands,
        }

    @staticmethod
    def spent(before: dict, after: dict) -> dict:
        """What was used between two snapshots."""
        wall = after["at"] - before["at"]
        cpu = {}
        for role, pids in after["cpu"].items():
            old = before["cpu"].get(role, {})
            # A process that came meanwhile counts from 0; one that left is lost (rare).
            cpu[role] = sum(v - old.get(pid, 0.0) for pid, v in pids.items())
        loops = sum(v - before["loops"].get(pid, 0.0) for pid, v in after["loops"].items())
        kinds: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0])
        hub = defaultdict(float)
        for pid, data in after["timing"].items():
            old = before["timing"].get(pid, {"kinds": {}, "hub": {}})
            for kind, row in data["kinds"].items():
                was = old["kinds"].get(kind, [0, 0.0, 0.0, 0])
                for i in range(4):
                    kinds[kind][i] += row[i] - was[i]
            for key, value in data["hub"].items():
                if key == "streams":
                    hub[key] += value
                else:
                    hub[key] += value - old["hub"].get(key, 0)
        pg = [a - b for a, b in zip(after["pg"], before["pg"], strict=True)]
        redis_calls = {}
        for name, stats in after["redis"].items():
            was = before["redis"].get(name, {"calls": 0, "usec": 0})
            calls = stats["calls"] - was["calls"]
            if calls:
                redis_calls[name.removeprefix("cmdstat_")] = (calls, stats["usec"] - was["usec"])
        busy = after["machine"][0] - before["machine"][0]
        return {
            "wall": wall,
            "machine busy": busy,
            "cpu": cpu,
            "loops": loops,
            "kinds": dict(kinds),
            "hub": dict(hub),
            "pg": pg,
            "redis": redis_calls,
        }

    # ---- the run

    def run(self) -> int:
        args = self.args
        self.setup()
        accounts = int(max(args.steps) * 1.15) + 50
        spectators = int(accounts * args.spectators)
        print(
            f"seeding {accounts - spectators} players ({GAMES_PER_PLAYER} games each) and"
            f" {spectators} spectators ...",
            flush=True,
        )
        started = time.monotonic()
        seeded = self.seed(accounts - spectators, spectators)
        print(f"  seeded in {time.monotonic() - started:.0f} s", flush=True)
        self.start_site()
        spec = {
            **seeded,
            "port": self.app_port,
            "seed": args.seed,
            "steps": args.steps,
            "hold": args.hold,
            "settle": args.settle,
            "ramp_rate": args.ramp_rate,
            "clients": args.clients,
            "warm": min(40, max(args.steps)),
            "deadline": len(args.steps) * (args.hold + 120) + max(args.steps) / args.ramp_rate,
            "mix": {
                "page_every": args.page_every,
                "move_every": args.move_every,
                "chat_every": args.chat_every,
                "session": args.session,
                "spectators": args.spectators,
                "own_game": 0.5,
                "watch_game": 0.2,
                "lobby": 0.2,
            },
        }
        spec_path = self.tmp / "spec.json"
        spec_path.write_text(json.dumps(spec))
        self.print_mix()
        self.generator = subprocess.Popen(
            [shape.PYTHON, str(ROOT / "bench" / "capacity_load.py"), str(spec_path)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(self.tmp / "generator.log", "w"),
            text=True,
        )
        results = []
        before = None
        held, unbroken = None, True
        for line in self.generator.stdout:
            event = json.loads(line)
            if event["event"] == "hold":
                before = self.snapshot()
                print(
                    f"step {event['step'] + 1}: {event['players']} players connected"
                    f" (ramped in {event['ramped']:.0f} s), holding {args.hold:g} s ...",
                    flush=True,
                )
            elif event["event"] == "held":
                spent = self.spent(before, self.snapshot())
                current = {"held": event, "spent": spent}
            elif event["event"] == "step":
                current["step"] = event
                results.append(current)
                ok = self.print_step(current)
                unbroken = unbroken and ok
                if unbroken:
                    held = current
                go = (ok or args.all_steps) and event["step"] + 1 < len(args.steps)
                self.generator.stdin.write("next\n" if go else "stop\n")
                self.generator.stdin.flush()
                if not go:
                    break
            elif event["event"] == "warm":
                print(f"warmed up with {event['players']} players", event["errors"] or "")
                if event["errors"]:
                    print(f"  {event['samples'][:3]}")
            elif event["event"] == "timeout":
                print("the load generator's deadline passed", flush=True)
                break
        self.generator.wait(120)
        self.report(results, held)
        return 0

    def print_mix(self) -> None:
        a = self.args
        print(
            f"mix per connected player: a page view every {a.page_every:g} s, a move every"
            f" {a.move_every:g} s (where it is their turn), a chat line every {a.chat_every:g}"
            f" s, a session of {a.session:g} s on average; {a.spectators:.0%} spectators;"
            f" one open stream each. At N players: N/{a.page_every:g} page views/s,"
            f" N x {1 - a.spectators:.2f}/{a.move_every:g} moves/s.",
            flush=True,
        )

    def print_step(self, r: dict) -> bool:
        held, step, spent = r["held"], r["step"], r["spent"]
        kinds = held["kinds"]
        p95 = {
            "pages": held["pages"].get("p95"),
            "move": kinds.get("move", {}).get("p95"),
            "updates": step["updates"].get("p95"),
        }
        ok = all(v is None or v <= RAMP_GOALS[k] for k, v in p95.items())
        goals = all(v is not None and v <= GOALS[k] for k, v in p95.items())

        def ms(v):
            return "-" if v is None else f"{v:.0f}"

        wall = spent["wall"]
        print(
            f"  {step['players']} players, {step['streams']} streams open: p95 page"
            f" {ms(p95['pages'])} ms ({held['pages'].get('n', 0)}), move {ms(p95['move'])} ms"
            f" ({kinds.get('move', {}).get('n', 0)}), update {ms(p95['updates'])} ms"
            f" ({step['updates'].get('n', 0)}; {step['missed']} missed; from the move's"
            f" request sent {ms(step['updates_from_sent'].get('p95'))}); machine"
            f" {spent['machine busy'] / wall:.2f} of 2 cores busy;"
            f" {'held' if ok else 'NOT held'} (300/300/500);"
            f" issue goals (150/250/250) {'met' if goals else 'not met'}",
            flush=True,
        )
        print(
            f"    moves answered {held['moves_ok']}, refused {held['refused_moves']}, not their"
            f" turn anywhere {held['no_turn']}; GETs sent again on a closed keep-alive"
            f" connection {held['retried']}; load generator CPU {step['cpu'] / wall:.2f}",
            flush=True,
        )
        if held["errors"] or held["refused_moves"] or held["stream_refused"]:
            print(
                f"    errors {held['errors']}, moves refused {held['refused_moves']},"
                f" streams refused {held['stream_refused']}, ended {held['stream_ended']};"
                f" {held['samples'][:3]}",
                flush=True,
            )
        return ok

    def report(self, results: list[dict], held: dict | None) -> None:
        print()
        if held is None:
            print("no step was held: the first already missed a ramp goal.")
        else:
            print(
                f"highest number of connected players held (p95 page <= 300, move <= 300,"
                f" update <= 500 ms): {held['step']['players']}"
            )
            self.breakdown(held, "where the time went at that step")
        index = results.index(held) + 1 if held is not None else 0
        if index < len(results):
            self.breakdown(results[index], "and at the first step that missed (what holds it)")

    def breakdown(self, result: dict, title: str) -> None:
        print(f"\n== {title}: {result['step']['players']} players ==")
        held_, step, spent = result["held"], result["step"], result["spent"]
        wall = spent["wall"]
        print(f"\nclient-side latency at {step['players']} players ({wall:.0f} s):")
        print(f"  {'kind':12} {'count':>6} {'/s':>7} {'p50':>7} {'p95':>7} {'p99':>7} ms")
        for kind, s in sorted(held_["kinds"].items()):
            if s.get("n"):
                print(
                    f"  {kind:12} {s['n']:6} {s['n'] / wall:7.2f} {s['p50']:7.1f}"
                    f" {s['p95']:7.1f} {s['p99']:7.1f}"
                )
        u = step["updates"]
        if u.get("n"):
            print(
                f"  {'update':12} {u['n']:6} {u['n'] / wall:7.2f} {u['p50']:7.1f}"
                f" {u['p95']:7.1f} {u['p99']:7.1f}   ({step['moves_measured']} moves,"
                f" {step['missed']} missed)"
            )
            s = step["updates_from_sent"]
            print(
                f"  {'(from sent)':12} {s['n']:6} {'':7} {s['p50']:7.1f} {s['p95']:7.1f}"
                f" {s['p99']:7.1f}   (the same events, from the move's request sent)"
            )
        print(f"\nCPU, share of one core over the step ({wall:.0f} s):")
        total = 0.0
        for role, seconds in sorted(spent["cpu"].items(), key=lambda kv: -kv[1]):
            total += seconds
            print(f"  {role:16} {seconds / wall:6.3f}")
        print(
            f"  {'(all of these)':16} {total / wall:6.3f}; the machine: "
            f"{spent['machine busy'] / wall:.3f} (other helpers' work included)"
        )
        print(f"  of the app workers: event loops {spent['loops'] / wall:.3f}")
        print("\nthe app workers' threads, per kind of request (capacity_app.py):")
        print(
            f"  {'kind':12} {'requests':>8} {'CPU ms/req':>10} {'SQL ms/req':>10}"
            f" {'queries':>7} {'core share':>10}"
        )
        counts = {k: v.get("n", 0) for k, v in held_["kinds"].items()}
        for kind, (_pieces, cpu, sql, queries) in sorted(
            spent["kinds"].items(), key=lambda kv: -kv[1][1]
        ):
            n = counts.get(kind) or 0
            each = [f"{1000 * x / n:10.2f}" if n else f"{'':>10}" for x in (cpu, sql)]
            q = f"{queries / n:7.1f}" if n else f"{'':>7}"
            print(f"  {kind:12} {n:8} {each[0]} {each[1]} {q} {cpu / wall:10.3f}")
        pg = spent["pg"]
        print(
            f"\nPostgreSQL: {pg[0] / wall:.0f} commits/s, {pg[1]} rollbacks, active time"
            f" {pg[2] / 1000 / wall:.3f} s/s, blocks read {pg[3]} (hit {pg[4]}), rows"
            f" returned {pg[5]} fetched {pg[6]} inserted {pg[7]} updated {pg[8]}"
        )
        calls = sorted(spent["redis"].items(), key=lambda kv: -kv[1][1])
        print(
            "Redis (INFO commandstats over the step): "
            + ", ".join(
                f"{name} {c / wall:.0f}/s ({us / 1e6 / wall:.3f} s/s)"
                for name, (c, us) in calls[:8]
            )  # fmt: skip
        )
        hub = spent["hub"]
        print(
            f"hub: {hub.get('streams', 0):.0f} streams open in the app processes;"
            f" {hub.get('publishes', 0) / wall:.1f} publishes/s"
            f" ({hub.get('published messages', 0) / wall:.1f} messages/s), "
            f"{hub.get('told', 0) / wall:.1f} messages told to streams/s"
        )

    def close(self) -> None:
        if self.generator is not None and self.generator.poll() is None:
            self.generator.kill()
            self.generator.wait(10)
        for service in reversed(list(self.services.values())):
            try:
                service.stop()
            except Exception as error:  # stopping must not hide the figures
                print(f"stopping {service.name}: {error}", file=sys.stderr)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        if self.admin is not None and self.db_name and not self.args.keep:
            self.admin.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            self.admin.close()
        if self.args.keep:
            print(f"kept: database {self.db_name}, logs in {self.tmp}")
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


def main() -> None:
    if (
        not os.environ.get("DATABASE_URL", "").startswith("postgres")
        and "--database-url" not in sys.argv
    ):
        print("bench/capacity.py: skipped, it needs DATABASE_URL of a PostgreSQL server")
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="150, 300, 600 players, 25 s each")
    parser.add_argument("--steps", default="1000,2000,4000,6000,8000,10000,12000")
    parser.add_argument("--hold", type=float, default=60, help="seconds each step is held")
    parser.add_argument("--settle", type=float, default=5, help="seconds after a ramp")
    parser.add_argument("--ramp-rate", type=float, default=200, help="players connected/s")
    parser.add_argument("--page-every", type=float, default=180)
    parser.add_argument("--move-every", type=float, default=300)
    parser.add_argument("--chat-every", type=float, default=900)
    parser.add_argument("--session", type=float, default=1200)
    parser.add_argument("--spectators", type=float, default=0.1)
    parser.add_argument(
        "--all-steps", action="store_true", help="go on after a step missed (profiling)"
    )
    parser.add_argument("--app-workers", type=int, default=4)
    parser.add_argument("--asgi-threads", type=int, default=2)
    parser.add_argument("--conn-max-age", type=int, default=None)
    parser.add_argument("--redis-max-connections", type=int, default=None)
    parser.add_argument("--clients", type=int, default=4, help="httpx clients (64 conns each)")
    parser.add_argument("--port-base", type=int, default=25200)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--keep", action="store_true", help="keep the database and the logs")
    args = parser.parse_args()
    if args.quick:  # every step, whatever the first ones gave: more to read in 3 minutes
        args.steps, args.hold, args.all_steps = "150,300,600", 25, True
    args.steps = [int(s) for s in args.steps.split(",")]
    run = Capacity(args)
    try:
        sys.exit(run.run())
    finally:
        run.close()


if __name__ == "__main__":
    main()
