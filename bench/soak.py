"""The soak of issue 40: the production shape under faults, every hand-over's messages counted.

Usage: DATABASE_URL=postgres://... .venv/bin/python bench/soak.py [--minutes 10] [--quick]
       [--games 30] [--strict] [--port-base 24000] [--seed 40] [--keep] [--table FILE]

Takes about --minutes plus two for the start and up to --drain (300 s) at the end; --quick
(3 minutes) about five to eight minutes in all, so ``make soak`` runs it, not ``make bench``.

What it starts, all on 127.0.0.1 (ports from ``--port-base``), all stopped at the end:

- a PostgreSQL database of its own (``<DATABASE_URL's database>_soak``, created, migrated
  and dropped again; DATABASE_URL must name a PostgreSQL server whose role may create
  databases) and a redis-server of its own (no persistence);
- two app servers: gunicorn with uvicorn workers serving ``config.asgi`` (DEBUG off,
  ``config.settings_bench`` for the collected static files);
- two Celery workers (queues ``SOAK_QUEUES``, default ``celery,pings``: the queues of
  today and of the ping queue of issue 40 item 4) and beat;
- an SMTP sink and an HTTP receiver (pushes and signed JSON webhooks), both in this
  process (``bench/soak_sinks.py``), recording every message with its Message-ID or
  delivery id.

What it plays: ``--games`` games (King of Siam and Tal der Könige in turn), each of
three seats: two people (accounts made here, each with an e-mail address, a push
subscription and a webhook, all wanting their turns at once) and a computer player
(played by the site's workers). The people are played by this script through the app
servers as a browser would: the board's text view gives the page's token, the move is
posted to the act route (as JSON, with a request id; a cut connection is retried on the
other server with the same id). A person moves only once their turn's mail, push and
post have arrived (or after ``--wait`` seconds): a turn played on before its messages
went would rightly cancel them. A share of turns (``--linger``) is then left open for one
to three minutes, as by a person who comes back later: a retry of a message the site
counted failed then goes while the turn is still on (the window of issue 40 item 3).

What it kills, one fault at a time from a seeded schedule until the time is up:
SIGKILL of a Celery worker (at random, and the one sending a mail that the SMTP sink has
taken whole and not yet answered: issue 40 item 2's window), of beat and of an app server
(each process group restarted after a few seconds); Redis stopped and started; the SMTP
sink stopped, and made to take a message and hang; the receiver answering 500, 429
(``Retry-After``) and more slowly than ``PING_TIMEOUT``.

What it checks, after the faults stop and the outbox drained (``--drain`` seconds at
most): per hand-over (a person's seat coming to move; the start mail that says "your
turn" counts for the first) how many mails, pushes and posts arrived: none lost;
duplicates split into those with the same Message-ID / delivery id (allowed only in the
window of issue 40 item 3: while a fault that can open it was on) and those without
(none allowed); every move answered ok in the database once (its receipt, and as many
moves as receipts); ``manage.py check_replays`` clean; no answer of 500 or above. A table
and PASS/FAIL per goal are printed; with ``--strict`` a FAIL exits 1. The per-hand-over
table is written to a CSV file, and what arrived, the faults and the hand-overs to a JSON
file beside it (their paths are printed). A hand-over whose message had not come when
its person moved on after ``--wait`` seconds is "late", not lost, if the site did not
mark it sent (it rightly skipped it: "turn over"); a row marked sent that never came is
lost. Not covered: the live streams, and a mail resent after its claim went stale (ten
minutes, longer than a turn stays open here).

A message is put to the latest hand-over of its recipient that had begun when it
arrived (each person sits in one game). The sinks count a message that reached them
whole: a mail the sink took and never answered (``hang``) and a post answered 200 after
its sender gave up (``slow``) count as arrived; a post answered 500 or 429 does not.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from shape import Service, create_database, redis_argv, wait_port  # noqa: E402
from soak_sinks import Arrival, HttpSink, Log, SmtpSink, port_free  # noqa: E402

TOKEN = re.compile(r'name="version" value="(v[0-9a-f]+)"')
TURN_TITLE = re.compile(r"^Your turn in “(.+)”$")
START_TITLE = re.compile(r"^“(.+)” has started: your turn$")
CHANNELS = ("email", "push", "webhook")
# Faults during which a message may rightly arrive twice with the same id (issue 40
# item 3: after the receiver took it, before the sender could mark it sent).
WINDOW_FAULTS = {"kill-worker", "kill-worker-mid-send", "smtp-hang", "hook-slow"}
PYTHON = sys.executable
BIN = Path(sys.executable).parent


# --------------------------------------------------------------------------- the record


@dataclass
class HandOver:
    game: int
    seat: int
    user: str
    since: float  # Seat.to_move_since, as Unix time
    move_count: int
    waited: float = 0.0  # seconds the person waited for the messages
    complete: bool = False  # all three arrived before the person moved


@dataclass
class Record:
    hand_overs: list[HandOver] = field(default_factory=list)
    ok_moves: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    refused: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # a person's step that raised
    server_errors: list[str] = field(default_factory=list)
    cut: int = 0  # requests whose connection failed (retried)
    requests: int = 0
    faults: list[tuple[str, float, float]] = field(default_factory=list)  # (kind, from, to)
    lock: threading.Lock = field(default_factory=threading.Lock)


# --------------------------------------------------------------------------- the players


class Player:
    """A person's browser: a session cookie, the CSRF pair, both app servers."""

    def __init__(self, name: str, cookie: str, csrf: str, ports: list[int], record: Record):
        self.name, self.csrf, self.ports, self.record = name, csrf, ports, record
        self.session = requests.Session()
        self.session.headers.update({"Cookie": cookie, "Accept-Language": "en"})

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        """One request; a refused or cut connection (an app server killed) is retried
        on the other server, as a load balancer would, for up to a minute."""
        headers = kwargs.pop("headers", {})
        if method == "POST":
            headers["X-CSRFToken"] = self.csrf
        end = time.time() + 60
        ports = self.ports[:]
        random.shuffle(ports)
        attempt = 0
        while True:
            port = ports[attempt % len(ports)]
            attempt += 1
            headers["Referer"] = f"http://127.0.0.1:{port}/"
            try:
                answer = self.session.request(
                    method,
                    f"http://127.0.0.1:{port}{path}",
                    headers=headers,
                    timeout=60,
                    allow_redirects=False,
                    **kwargs,
                )
            except requests.RequestException:
                with self.record.lock:
                    self.record.cut += 1
                if time.time() > end:
                    raise
                time.sleep(0.5)
                continue
            with self.record.lock:
                self.record.requests += 1
                if answer.status_code >= 500:
                    self.record.server_errors.append(f"{method} {path} -> {answer.status_code}")
            if answer.status_code >= 500 and time.time() < end:
                time.sleep(0.5)
                continue
            return answer


class Table:
    """One game, played by its two people until the time is up."""

    def __init__(self, game_id: int, players: dict[int, Player], log: Log, args, record: Record):
        self.game_id, self.players, self.log, self.args, self.record = (
            game_id,
            players,
            log,
            args,
            record,
        )
        self.seen: set[tuple[int, float]] = set()
        self.rng = random.Random(f"{args.seed}:{game_id}")

    def arrived(self, user: str, since: float) -> set[str]:
        return {
            a.channel
            for a in self.log.snapshot()
            if a.user == user and a.accepted and a.at >= since and turn_kind(a.title)
        }

    def play(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                try:
                    if not self.step(stop):
                        return
                except Exception as error:  # counted and printed; the person tries again
                    with self.record.lock:
                        self.record.problems.append(
                            f"game {self.game_id}: {type(error).__name__}: {error}"
                        )
                    stop.wait(2)
        finally:
            from django.db import connection

            connection.close()

    def step(self, stop: threading.Event) -> bool:
        """One look at the game and, on a person's turn, their move; False: game over or
        time up."""
        from games import replay
        from games.models import Game

        game = Game.objects.get(pk=self.game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        state = replay.current_state(game)
        seats = {s.number: s for s in game.seats.select_related("user")}
        active = sorted(game.engine.active_seats(state))
        mine = [n for n in active if n in self.players]
        if not mine:
            stop.wait(0.5)  # the computer's turn: the site's workers play it
            return True
        number = mine[0]
        seat = seats[number]
        player = self.players[number]
        since = seat.to_move_since.timestamp() if seat.to_move_since else time.time()
        if (number, since) not in self.seen:
            self.seen.add((number, since))
            hand = HandOver(self.game_id, number, player.name, since, game.move_count)
            with self.record.lock:
                self.record.hand_overs.append(hand)
            started = time.time()
            while not stop.is_set() and time.time() - started < self.args.wait:
                if self.arrived(player.name, since) >= set(CHANNELS):
                    hand.complete = True
                    break
                stop.wait(0.2)
            hand.waited = time.time() - started
            if hand.complete and self.rng.random() < self.args.linger:
                # A person who reads the mail and comes back later: a retry of
                # a post the site counted failed goes while the turn is still on.
                stop.wait(self.rng.uniform(*self.args.linger_seconds))
            if stop.is_set():
                return False
        self.move(game, state, number, player)
        return True

    def move(self, game, state, number: int, player: Player) -> None:
        import bots

        board = player.call("GET", f"/g/{game.pk}/board?text=1", headers={"HX-Request": "true"})
        found = TOKEN.search(board.text)
        if board.status_code != 200 or found is None:
            time.sleep(0.5)  # the page shows no action (yet): read again
            return
        action = bots.choose(
            game.engine,
            state,
            number,
            "random",
            salt=f"{game.pk}:{game.move_count}",
            players=game.players,
        )
        request_id = uuid.uuid4().hex
        body = {"action": action, "version": found.group(1), "request_id": request_id}
        answer = player.call("POST", f"/g/{game.pk}/act", json=body)
        try:
            data = answer.json()
        except ValueError:
            data = {}
        with self.record.lock:
            if data.get("ok"):
                self.record.ok_moves[game.pk].add(request_id)
            else:
                # A computer's move or a take-over between reading and posting changes the
                # token: the site refuses, nothing changes, the person reads again.
                self.record.refused.append(f"{game.pk}: {answer.status_code} {data}")


def turn_kind(title: str) -> str:
    if TURN_TITLE.match(title):
        return "turn"
    if START_TITLE.match(title):
        return "start"
    return ""


# --------------------------------------------------------------------------- the soak


class Soak:
    def __init__(self, args) -> None:
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="soak-"))
        base = args.port_base
        self.redis_port, self.smtp_port, self.http_port = base, base + 1, base + 2
        self.app_ports = [base + 10, base + 11]
        for port in [self.redis_port, self.smtp_port, self.http_port, *self.app_ports]:
            if not port_free(port):
                sys.exit(f"port {port} is in use: choose another --port-base")
        self.log = Log()
        self.record = Record()
        self.services: dict[str, Service] = {}
        self.rng = random.Random(args.seed)
        self.admin = None
        self.db_name = ""

    # ---- setting up

    def database(self) -> str:
        self.admin, url, self.db_name = create_database(self.args.database_url, "_soak")
        return url

    def environment(self, database_url: str, vapid: tuple[str, str]) -> dict[str, str]:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings_bench",
            "DEBUG": "0",
            "SECRET_KEY": self.secret,
            "SECURE_SSL_REDIRECT": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": database_url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "EMAIL_URL": f"smtp://127.0.0.1:{self.smtp_port}",
            "EMAIL_TIMEOUT": str(self.args.email_timeout),
            "SITE_URL": f"http://127.0.0.1:{self.app_ports[0]}",
            "PING_ALLOWED_NETWORKS": "127.0.0.0/8",
            "PING_TIMEOUT": str(self.args.ping_timeout),
            "VAPID_PUBLIC_KEY": vapid[0],
            "VAPID_PRIVATE_KEY": vapid[1],
            "VAPID_SUBJECT": "mailto:soak@example.org",
            # The soak counts deliveries: a hook switched off after many refusals would
            # be a (documented) loss that hides the ones it looks for.
            "WEBHOOK_MAX_FAILURES": "1000000",
            "LOG_LEVEL": "WARNING",
            "BENCH_STATIC_ROOT": str(self.tmp / "static"),
        }

    def setup(self) -> None:
        self.secret = secrets.token_urlsafe(40)
        database_url = self.database()
        os.environ.update(
            DJANGO_SETTINGS_MODULE="config.settings_bench",
            DATABASE_URL=database_url,
            DEBUG="0",
            SECRET_KEY=self.secret,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            CELERY_TASK_ALWAYS_EAGER="0",
            BENCH_STATIC_ROOT=str(self.tmp / "static"),
            EMAIL_URL="dummymail://",
            LOG_LEVEL="ERROR",
        )
        import django

        django.setup()
        from django.core.management import call_command

        from notify.push import new_keys

        self.vapid = new_keys()
        self.env = self.environment(database_url, self.vapid)
        self.sinks()
        self.services["redis"] = Service(
            "redis", redis_argv(self.redis_port, self.tmp), self.env, self.tmp / "redis.log"
        )
        self.services["redis"].start()
        print(f"migrating {self.db_name}, collecting static files ...", flush=True)
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        queues = os.environ.get("SOAK_QUEUES", "celery,pings")
        celery = [PYTHON, "-m", "celery", "-A", "config"]
        for i, port in enumerate(self.app_ports, 1):
            self.services[f"app{i}"] = Service(
                f"app{i}",
                [
                    str(BIN / "gunicorn"),
                    "config.asgi:application",
                    "-k",
                    "uvicorn_worker.UvicornWorker",
                    "--workers",
                    str(self.args.app_workers),
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--timeout",
                    "60",
                    "--log-level",
                    "warning",
                ],
                self.env,
                self.tmp / f"app{i}.log",
            )
        for i in (1, 2):
            self.services[f"worker{i}"] = Service(
                f"worker{i}",
                celery
                + [
                    "worker",
                    "-Q",
                    queues,
                    "-n",
                    f"soak{i}@%h",
                    "--concurrency",
                    "2",
                    "--loglevel",
                    "WARNING",
                ],
                self.env,
                self.tmp / f"worker{i}.log",
            )
        self.services["beat"] = Service(
            "beat",
            celery + ["beat", "-s", str(self.tmp / "beat-schedule"), "--loglevel", "WARNING"],
            self.env,
            self.tmp / "beat.log",
        )
        for name, service in self.services.items():
            if name != "redis":
                service.start()
        for port in self.app_ports:
            wait_port(port, 90, "/")
        print(
            f"up: 2 app servers ({self.args.app_workers} uvicorn workers each), 2 Celery"
            f" workers (-Q {queues}), beat, redis-server, SMTP sink, receiver",
            flush=True,
        )

    def sinks(self) -> None:
        self.smtp = SmtpSink(self.smtp_port, self.log)
        self.http = HttpSink(self.http_port, self.log, self.args.ping_timeout + 3)

    def people(self, count: int) -> list[tuple[object, Player]]:
        """``count`` people, each with a session, a push subscription and a webhook."""
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore
        from django.utils import timezone

        from accounts.models import User
        from notify.models import Events, PushDevice, Webhook
        from notify.webhooks import new_secret

        made = []
        csrf = secrets.token_hex(16)
        for n in range(count):
            name = f"soak{n}"
            user = User.objects.create_user(
                name,
                f"{name}@example.org",
                display_name=f"Soak {n}",
                language="en",
                notify_at_once=True,
                quiet_from=None,
                quiet_until=None,
            )
            session = SessionStore()
            session.update(
                {
                    SESSION_KEY: str(user.pk),
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                }
            )
            session.set_expiry(timezone.timedelta(days=1))
            session.create()
            sub = self.http.subscription(name)
            PushDevice.objects.create(user=user, name="soak", events=list(Events.values), **sub)
            Webhook.objects.create(
                user=user,
                service=Webhook.Service.JSON,
                secret=new_secret(),
                url=self.http.url(f"/hook/{name}"),
                events=list(Events.values),
            )
            cookie = f"sessionid={session.session_key}; csrftoken={csrf}"
            made.append((user, Player(name, cookie, csrf, self.app_ports, self.record)))
        return made

    def games(self) -> list[Table]:
        """The games, made through the site: the first person creates one with a computer
        in one seat, the second joins it, and it starts."""
        from botplay.playtest import _form_data
        from games import registry
        from games.models import Game

        people = self.people(2 * self.args.games)
        tables = []
        for g in range(self.args.games):
            slug = ("siam", "tal")[g % 2]
            (a_user, a), (b_user, b) = people[2 * g], people[2 * g + 1]
            data = _form_data(registry.get(slug), 3, {})
            data.update(title=f"Soak {g}", computer_2="random")
            answer = a.call("POST", f"/new/{slug}/", data=data)
            if answer.status_code != 302:
                raise RuntimeError(f"creating a game answered {answer.status_code}")
            game_id = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1])
            joined = b.call("POST", f"/g/{game_id}/join", data={})
            if joined.status_code != 302:
                raise RuntimeError(f"joining game {game_id} answered {joined.status_code}")
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE:
                raise RuntimeError(f"game {game_id} did not start")
            numbers = {s.user_id: s.number for s in game.seats.all()}
            tables.append(
                Table(
                    game_id,
                    {numbers[a_user.pk]: a, numbers[b_user.pk]: b},
                    self.log,
                    self.args,
                    self.record,
                )
            )
        return tables

    # ---- the faults

    def fault_schedule(self, stop: threading.Event) -> None:
        kinds = [
            "kill-worker",
            "kill-worker-mid-send",
            "kill-beat",
            "kill-app",
            "redis-stop",
            "smtp-stop",
            "smtp-hang",
            "hook-500",
            "hook-429",
            "hook-slow",
        ]
        while not stop.is_set():
            order = kinds[:]
            self.rng.shuffle(order)
            for kind in order:
                if stop.wait(self.rng.uniform(*self.args.gap)):
                    return
                self.fault(kind, stop)

    def fault(self, kind: str, stop: threading.Event) -> None:
        began = time.time()
        # A killed process is started again after a few seconds; the rest last longer.
        lasts = (
            self.rng.uniform(3, 8)
            if kind.startswith("kill-")
            else self.rng.uniform(*self.args.lasts)
        )
        print(f"  {time.strftime('%H:%M:%S')} fault: {kind} for {lasts:.0f} s", flush=True)
        if kind == "kill-worker-mid-send":
            name = self.kill_mid_send()
            stop.wait(lasts)
            self.services[name].start()
        elif kind.startswith("kill-"):
            name = {
                "kill-worker": self.rng.choice(["worker1", "worker2"]),
                "kill-beat": "beat",
                "kill-app": self.rng.choice(["app1", "app2"]),
            }[kind]
            self.services[name].kill()
            stop.wait(lasts)
            self.services[name].start()
        elif kind == "redis-stop":
            self.services["redis"].stop()
            stop.wait(lasts)
            self.services["redis"].start()
        elif kind == "smtp-stop":
            self.smtp.stop()
            stop.wait(lasts)
            self.smtp.start()
        elif kind == "smtp-hang":
            self.smtp.mode = "hang"
            stop.wait(lasts)
            self.smtp.mode = "accept"
        else:
            self.http.mode = kind.removeprefix("hook-")
            stop.wait(lasts)
            self.http.mode = "ok"
        with self.record.lock:
            self.record.faults.append((kind, began, time.time()))

    def kill_mid_send(self) -> str:
        """SIGKILL the worker that is sending a mail, after the sink took the message
        whole and before it answered (issue 40 item 2's window); any worker if no mail
        goes within 60 s. Returns the worker's name."""
        release = threading.Event()
        self.smtp.holding.clear()
        self.smtp.hold = release
        name = self.rng.choice(["worker1", "worker2"])
        if self.smtp.holding.wait(60):
            name = self.sender_of(self.smtp_port) or name
            print(f"    {name} killed with a mail taken and not yet answered", flush=True)
        else:
            self.smtp.hold = None
        self.services[name].kill()
        release.set()
        return name

    def sender_of(self, port: int) -> str | None:
        """The worker (by service name) with a connection open to 127.0.0.1:``port``."""
        inodes = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as rows:
                for line in list(rows)[1:]:
                    fields = line.split()
                    if int(fields[2].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                        inodes.add(fields[9])
        groups = {
            s.proc.pid: name
            for name, s in self.services.items()
            if name.startswith("worker") and s.proc is not None
        }
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                group = os.getpgid(int(entry))
                if group not in groups:
                    continue
                for fd in os.listdir(f"/proc/{entry}/fd"):
                    link = os.readlink(f"/proc/{entry}/fd/{fd}")
                    if link.startswith("socket:[") and link[8:-1] in inodes:
                        return groups[group]
            except OSError:
                continue
        return None

    # ---- the run

    def run(self) -> int:
        args = self.args
        started = time.time()
        self.setup()
        print(f"creating {args.games} games through the site ...", flush=True)
        tables = self.games()
        stop_play, stop_faults = threading.Event(), threading.Event()
        threads = [threading.Thread(target=t.play, args=(stop_play,), daemon=True) for t in tables]
        for thread in threads:
            thread.start()
        faults = threading.Thread(target=self.fault_schedule, args=(stop_faults,), daemon=True)
        print(f"playing for {args.minutes:g} minutes with faults ...", flush=True)
        faults.start()
        time.sleep(args.minutes * 60)
        stop_faults.set()
        faults.join(60)
        stop_play.set()
        for thread in threads:
            thread.join(90)
        played = time.time() - started
        print(f"faults over; draining the outbox (at most {args.drain} s) ...", flush=True)
        drained = self.drain()
        replays = self.check_replays()
        return self.report(played, drained, replays)

    def open_turns(self) -> list[HandOver]:
        from games.models import Game, Seat

        known = {(h.game, h.seat, round(h.since, 3)) for h in self.record.hand_overs}
        found = []
        people = {h.user for h in self.record.hand_overs} | {
            f"soak{n}" for n in range(2 * self.args.games)
        }  # noqa: E501
        rows = Seat.objects.filter(
            to_move=True, user__username__in=people, game__status=Game.Status.ACTIVE
        )
        for seat in rows.select_related("user", "game"):
            key = (seat.game_id, seat.number, round(seat.to_move_since.timestamp(), 3))
            if key not in known:
                found.append(
                    HandOver(
                        seat.game_id,
                        seat.number,
                        seat.user.username,
                        seat.to_move_since.timestamp(),
                        seat.game.move_count,
                    )
                )
        return found

    def arrived(self, h: HandOver) -> set[str]:
        return {
            a.channel
            for a in self.log.snapshot()
            if a.user == h.user and a.accepted and a.at >= h.since and turn_kind(a.title)
        }

    def owed(self) -> int:
        """Turn messages not yet sent (nor given up) of turns still open."""
        from games.models import Seat
        from notify.models import Notification

        open_turns = {
            (s.game_id, s.number, s.to_move_since)
            for s in Seat.objects.filter(to_move=True, user__username__startswith="soak")
        }
        rows = Notification.objects.filter(
            sent_at=None,
            skipped="",
            kind__in=["turn", "game_started"],
            in_digest=False,
            user__username__startswith="soak",
        ).select_related("game")
        return sum(
            1
            for r in rows
            if (r.game_id, r.seat, r.turn_since) in open_turns
            or (r.kind == "game_started" and any(t[:2] == (r.game_id, r.seat) for t in open_turns))
        )

    def drain(self) -> float:
        """Wait until nothing is owed: every hand-over still open has its three messages
        and no turn's row waits unsent (bounded by ``--drain``)."""
        self.record.hand_overs.extend(self.open_turns())
        began = time.time()
        while time.time() - began < self.args.drain:
            for h in self.record.hand_overs:
                if not h.complete:
                    h.complete = self.arrived(h) >= set(CHANNELS)
            if not self.owed():
                break
            time.sleep(2)
        time.sleep(5)  # a late duplicate would come now
        return time.time() - began

    def check_replays(self) -> tuple[int, str]:
        answer = subprocess.run(
            [PYTHON, "manage.py", "check_replays"],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        return answer.returncode, (answer.stdout + answer.stderr).strip()

    # ---- the figures

    def in_window(self, at: float) -> bool:
        slack = max(self.args.email_timeout, self.args.ping_timeout) + 30
        return any(
            kind in WINDOW_FAULTS and begin - slack <= at <= end + slack
            for kind, begin, end in self.record.faults
        )

    def report(self, played: float, drained: float, replays: tuple[int, str]) -> int:
        from django.utils import timezone

        from games.models import Game, Move, Receipt
        from notify.models import Notification

        record = self.record
        arrivals = [a for a in self.log.snapshot() if turn_kind(a.title)]
        by_user: dict[str, list[HandOver]] = defaultdict(list)
        for h in sorted(record.hand_overs, key=lambda h: h.since):
            by_user[h.user].append(h)
        copies: dict[tuple[int, str], list[Arrival]] = defaultdict(list)  # (id(h), channel)
        unplaced = 0
        for a in arrivals:
            if not a.accepted:
                continue
            earlier = [h for h in by_user.get(a.user, []) if h.since <= a.at]
            if not earlier:
                unplaced += 1
                continue
            copies[(id(earlier[-1]), a.channel)].append(a)
        # Rows of hand-overs nothing arrived for: why (turn over before it went: the
        # person waited --wait seconds and moved on; else lost).
        rows = []
        totals = {c: Counter() for c in CHANNELS}
        for h in record.hand_overs:
            line = {
                "game": h.game,
                "seat": h.seat,
                "user": h.user,
                "move": h.move_count,
                "waited": round(h.waited, 1),
            }
            for channel in CHANNELS:
                got = copies.get((id(h), channel), [])
                idents = Counter(a.ident for a in got)
                same = sum(n - 1 for i, n in idents.items() if i)
                other = max(0, len(idents) - 1) + sum(n - 1 for i, n in idents.items() if not i)
                # A repeat is in the window when its first copy arrived while a fault that
                # opens it was on (the repeat itself may come much later: a stale claim).
                same_outside = sum(
                    n - 1
                    for i, n in idents.items()
                    if i and n > 1 and not self.in_window(min(a.at for a in got if a.ident == i))
                )
                t = totals[channel]
                t["hand-overs"] += 1
                if got:
                    t["arrived"] += 1
                t["copies"] += len(got)
                t["dup same id"] += same
                t["dup same id outside window"] += same_outside
                t["dup other id"] += other
                line[channel] = len(got)
                line[f"{channel}_dup_same_id"] = same
                line[f"{channel}_dup_other_id"] = other
            rows.append(line)
        # Which of the silent hand-overs the site gave up on rightly (turn over).
        lost = {c: 0 for c in CHANNELS}
        late = {c: 0 for c in CHANNELS}
        retrying = {c: 0 for c in CHANNELS}
        now = timezone.now()
        for line, h in zip(rows, record.hand_overs, strict=True):
            for channel in CHANNELS:
                if line[channel]:
                    continue
                sent = Notification.objects.filter(
                    user__username=h.user,
                    game_id=h.game,
                    kind="turn",
                    channel=channel,
                    move_count=h.move_count,
                ).exclude(sent_at=None)
                # Still queued when the drain ended: refused by the receiver (500, 429)
                # and due again after its backoff, so not lost, but not yet there.
                queued = Notification.objects.filter(
                    user__username=h.user,
                    game_id=h.game,
                    kind="turn",
                    channel=channel,
                    move_count=h.move_count,
                    sent_at=None,
                    skipped="",
                    attempts__gte=1,
                    next_attempt_at__gt=now,
                )
                if h.waited >= self.args.wait - 0.5 and not sent.exists():
                    late[channel] += 1  # the person moved on before it came: rightly skipped
                elif queued.exists():
                    retrying[channel] += 1
                else:
                    lost[channel] += 1
        csv_path = Path(self.args.table or self.tmp.parent / f"soak-{int(time.time())}.csv")
        with csv_path.open("w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["game"])
            writer.writeheader()
            writer.writerows(rows)

        # Everything that arrived, the faults and the hand-overs, to look into afterwards.
        raw = {
            "arrivals": [
                {k: v for k, v in vars(a).items() if k != "headers"} for a in self.log.snapshot()
            ],
            "faults": record.faults,
            "hand_overs": [vars(h) for h in record.hand_overs],
        }
        csv_path.with_suffix(".json").write_text(json.dumps(raw, indent=1))

        # Moves: every one answered ok is in the database once.
        soak_games = list({h.game for h in record.hand_overs} | set(record.ok_moves))
        receipts = defaultdict(set)
        for game_id, request_id in Receipt.objects.filter(
            game_id__in=soak_games, user__username__startswith="soak"
        ).values_list("game_id", "request_id"):
            receipts[game_id].add(request_id)
        missing = sum(len(ids - receipts[g]) for g, ids in record.ok_moves.items())
        uneven = []
        ok_total = sum(len(ids) for ids in record.ok_moves.values())
        db_moves = 0
        for game in Game.objects.filter(pk__in=soak_games):
            humans = list(
                game.seats.filter(user__username__startswith="soak").values_list(
                    "number", flat=True
                )
            )  # noqa: E501
            moved = Move.objects.filter(game=game, seat__in=humans, undone=False).count()
            db_moves += Move.objects.filter(game=game).count()
            if moved != len(receipts[game.pk]):
                uneven.append(
                    f"game {game.pk}: {moved} moves of people, {len(receipts[game.pk])} receipts"
                )  # noqa: E501
        finished = Game.objects.filter(pk__in=soak_games, status=Game.Status.FINISHED).count()
        outbox = Counter(
            Notification.objects.filter(game_id__in=soak_games).values_list("skipped", flat=True)
        )

        print()
        print(
            f"Soak of issue 40: {played / 60:.1f} min played with faults, drained in"
            f" {drained:.0f} s; {len(soak_games)} games ({finished} finished), {db_moves} moves"
            f" in the database ({ok_total} by people, answered ok), {len(record.hand_overs)}"
            f" hand-overs to people, {record.requests} requests ({record.cut} cut and retried,"
            f" {len(record.refused)} moves refused as stale and read again)."
        )
        fault_counts = Counter(kind for kind, _b, _e in record.faults)
        print("faults: " + ", ".join(f"{k} x{n}" for k, n in sorted(fault_counts.items())))
        print()
        head = [
            "channel",
            "hand-overs",
            "arrived",
            "copies",
            "lost",
            "late",
            "retrying",
            "dup same id",
            "(outside window)",
            "dup other id",
        ]
        print("  ".join(f"{h:>16}" for h in head))
        for channel in CHANNELS:
            t = totals[channel]
            cells = [
                channel,
                t["hand-overs"],
                t["arrived"],
                t["copies"],
                lost[channel],
                late[channel],
                retrying[channel],
                t["dup same id"],
                t["dup same id outside window"],
                t["dup other id"],
            ]
            print("  ".join(f"{c!s:>16}" for c in cells))
        print(
            f"(late: the person waited {self.args.wait:g} s and moved on, so the site rightly"
            f" skipped it: 'turn over'; retrying: refused by the receiver and due again after"
            f" its backoff when the drain ended; messages placed on no hand-over: {unplaced};"
            f" refused by the receiver's 500/429: {sum(1 for a in arrivals if not a.accepted)})"
        )
        modes = Counter(f"{a.channel} {a.mode}" for a in self.log.snapshot())
        print(
            "what reached the sinks, by their mode then: "
            + ", ".join(f"{k} {n}" for k, n in sorted(modes.items()))
        )
        print(f"per hand-over table: {csv_path} (what arrived, faults: {csv_path.stem}.json)")
        odd = [r for r in rows if any(r[c] != 1 for c in CHANNELS)]
        if odd:
            print(f"hand-overs with other than one mail, push and post ({len(odd)}; first 25):")
            print("   game seat  move  mail push post  (dup same id / other id per channel)")
            for r in odd[:25]:
                dups = " ".join(
                    f"{r[f'{c}_dup_same_id']}/{r[f'{c}_dup_other_id']}" for c in CHANNELS
                )
                print(
                    f"  {r['game']:>5} {r['seat']:>4} {r['move']:>5}  {r['email']:>4}"
                    f" {r['push']:>4} {r['webhook']:>4}  {dups}  waited {r['waited']} s"
                )
        print(
            "outbox rows of these games by outcome: "
            + ", ".join(f"{k or 'sent/pending'}: {n}" for k, n in outbox.most_common())
        )
        if record.problems:
            print(f"a person's step raised ({len(record.problems)}): {record.problems[:3]}")
        if self.http.errors:
            print(f"unreadable posts: {len(self.http.errors)}; first: {self.http.errors[0]}")
        print()
        goals = [
            ("0 messages lost (mail, push, post)", sum(lost.values()) == 0, f"{dict(lost)}"),
            (
                "0 duplicates without the same Message-ID / delivery id",
                all(totals[c]["dup other id"] == 0 for c in CHANNELS),
                ", ".join(f"{c} {totals[c]['dup other id']}" for c in CHANNELS),
            ),
            (
                "duplicates with the same id only in the window of item 3",
                all(totals[c]["dup same id outside window"] == 0 for c in CHANNELS),
                ", ".join(
                    f"{c} {totals[c]['dup same id']} ({totals[c]['dup same id outside window']}"
                    " outside)"
                    for c in CHANNELS
                ),
            ),
            (
                "every move answered ok in the database once",
                not missing and not uneven,
                f"{missing} missing, {len(uneven)} games uneven"
                + (f": {uneven[:3]}" if uneven else ""),
            ),
            (
                "check_replays clean",
                replays[0] == 0,
                replays[1].splitlines()[-1] if replays[1] else "",
            ),
            (
                "0 server errors (5xx)",
                not record.server_errors,
                f"{len(record.server_errors)}"
                + (f": {record.server_errors[:3]}" if record.server_errors else ""),
            ),
            (
                f"at least 30 games with computer players ({len(soak_games)})",
                len(soak_games) >= 30,
                "",
            ),
        ]
        failed = False
        for goal, ok, detail in goals:
            failed |= not ok
            print(f"{'PASS' if ok else 'FAIL'}  {goal}: {detail}")
        return 1 if failed else 0

    def close(self) -> None:
        for service in reversed(list(self.services.values())):
            try:
                service.stop()
            except Exception as error:  # stopping must not hide the figures
                print(f"stopping {service.name}: {error}", file=sys.stderr)
        for sink in (getattr(self, "smtp", None), getattr(self, "http", None)):
            if sink is not None:
                sink.close()
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10, help="play with faults this long")
    parser.add_argument("--quick", action="store_true", help="3 minutes, 30 games")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument(
        "--wait",
        type=float,
        default=200,
        help="seconds a person waits for a turn's messages before moving on",
    )
    parser.add_argument(
        "--linger",
        type=float,
        default=0.15,
        help="share of turns a person leaves open for a while after their messages came",
    )
    parser.add_argument("--drain", type=float, default=300, help="at most this long at the end")
    parser.add_argument("--port-base", type=int, default=24000)
    parser.add_argument("--app-workers", type=int, default=2)
    parser.add_argument("--email-timeout", type=float, default=10)
    parser.add_argument("--ping-timeout", type=float, default=5)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--table", help="where to write the per-hand-over CSV")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--keep", action="store_true", help="keep the database and the logs")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal fails")
    args = parser.parse_args()
    # A fault every 12-30 s (~20 s in a quick run, so that each kind comes at least once).
    args.gap, args.lasts = (4, 10), (8, 20)
    args.linger_seconds = (60, 180)
    if args.quick:
        args.minutes, args.gap, args.lasts = 3, (3, 6), (8, 16)
    soak = Soak(args)
    code = 1
    try:
        code = soak.run()
    finally:
        soak.close()
    sys.exit(code if args.strict else 0)


if __name__ == "__main__":
    main()
