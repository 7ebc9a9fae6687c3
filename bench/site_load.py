"""The site under load: page costs as ratios to a trivial signed-in view (issue 12).

Usage: .venv/bin/python bench/site_load.py [--quick] [--requests N] [--seconds S]

Builds a throw-away database (an SQLite file in a temporary directory; with DATABASE_URL
set, a PostgreSQL database named after it with ``_bench`` appended, created and dropped
here, so the user's own data is never touched; with REDIS_URL, the cache and the Celery
queue use keys of their own, removed at the end), migrates it, seeds it through the site's
own code (``games.play``), and starts gunicorn (2 sync workers, 127.0.0.1, a free port,
DEBUG off) with ``config.settings_bench``, which adds the two yardsticks: ``/bench/trivial``
and the one-INSERT POST ``/bench/insert``. A small threaded client (http.client, signed
in through a session cookie, CSRF token for POSTs) then measures, interleaved in rounds
so that the load of the machine drifts alike over all figures:

- game page (unchanged position), a finished game's page (its players' look: the rematch,
  the next game, the review), game page after a new move (the opponent's first look),
  poll (204), history ``?at=N``, lobby, my games, archive, archive ``?mine=1``;
- the move round trip (POST act -> new board, as HTMX sends it) against the INSERT POST;
- the page cost at move ~1,000 against move 10 (Tal der Könige, two players);
- lobby, archive, my games and game page with 100,000 finished games and 1,000,000 moves
  in the database (``manage.py bench_fill``) against 100 games.

Each figure is requests/s of the page divided by requests/s of the trivial view (or of
the INSERT POST), from the median time per request, next to its goal; "cost" ratios are
the inverse (time per request, relative), each normalised by its trivial view. Every
request of a page follows one of the trivial view (every move one INSERT POST), and a
page is compared with those: on a virtual machine whose speed drifts by a third within
a minute, a figure and its yardstick are measured at the same moments.
``--quick`` (for ``make bench``) sends fewer requests but keeps every size, the 100,000
games included.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TRIVIAL = "/bench/trivial"
GOALS = {
    "game": ("game page, unchanged position (Tal, move 10)", 0.5),
    "poll": ("poll, nothing new (204)", 0.8),
}


# --------------------------------------------------------------------------- database


@dataclass
class Target:
    """Where the benchmark's data lives, and how to remove it again."""

    description: str
    env: dict[str, str]
    cleanup: list[Any] = field(default_factory=list)

    def close(self) -> None:
        for fn in reversed(self.cleanup):
            try:
                fn()
            except Exception as error:  # cleaning up must not hide the figures
                print(f"cleanup: {error}", file=sys.stderr)


def bench_env(tmp: Path) -> dict[str, str]:
    """The settings every benchmark runs the site with: production's (DEBUG off,
    ``config.settings_bench``), static files and mail kept under ``tmp``."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings_bench",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "SECURE_SSL_REDIRECT": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "EMAIL_URL": "dummymail://",
        "LOG_LEVEL": "WARNING",
        "BENCH_STATIC_ROOT": str(tmp / "static"),
    }


def use_in_process_sqlite(tmp: Path) -> None:
    """This process runs the site itself, on a throw-away SQLite file under ``tmp`` and
    without Redis (the in-process benchmarks: figures free of network and server)."""
    os.environ.update(bench_env(tmp), DATABASE_URL=f"sqlite:///{tmp / 'bench.sqlite3'}")
    os.environ.pop("REDIS_URL", None)


def prepare(tmp: Path) -> Target:
    tag = secrets.token_hex(4)
    env = bench_env(tmp)
    target = Target("", env)
    url = os.environ.get("DATABASE_URL", "")
    if url:
        import psycopg

        parts = urllib.parse.urlsplit(url)
        name = parts.path.lstrip("/") + "_bench"
        bench_url = urllib.parse.urlunsplit(parts._replace(path="/" + name))
        admin = psycopg.connect(url, autocommit=True)

        def drop() -> None:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.close()

        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
        target.cleanup.append(drop)
        env["DATABASE_URL"] = bench_url
        target.description = f"PostgreSQL (database {name})"
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
        target.description = "SQLite (temporary file)"
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        import redis

        prefix, queue = f"bench-{tag}", f"bench-{tag}"
        env["CACHE_KEY_PREFIX"] = prefix
        env["CELERY_TASK_DEFAULT_QUEUE"] = queue
        client = redis.Redis.from_url(redis_url)

        def forget() -> None:
            for pattern in (f"{prefix}:*", queue, f"*{queue}*"):
                for key in client.scan_iter(pattern):
                    client.delete(key)

        target.cleanup.append(forget)
        target.description += f" + Redis (keys {prefix}:*)"
    return target


# --------------------------------------------------------------------------- seeding


def tal_weights(actions: list[dict[str, Any]]) -> list[float]:
    """A player who changes plans and builds a lot: games of a few thousand actions."""
    from tal.engine import board as B

    weights = []
    for a in actions:
        t = a["type"]
        if t == "plan":
            w = 2.0
        elif t == "submit_plan":
            w = 0.25
        elif t in ("build", "steal", "takeover"):
            w = 5.0
        elif t == "move":
            w = 3.0 if a["to"] in B.FIELD_SITE else 0.3
        else:
            w = 1.0
        weights.append(w)
    return weights


def plan_moves(state: Any, count: int, rng: random.Random) -> list[tuple[int, dict]]:
    """The next ``count`` (seat, action) pairs of a game from ``state`` (fewer if it ends)."""
    from tal.engine import ENGINE as E

    out = []
    for _ in range(count):
        if E.result(state) is not None:
            break
        seat = rng.choice(sorted(E.active_seats(state)))
        acts = E.legal_actions(state, seat)
        action = rng.choices(acts, tal_weights(acts))[0]
        out.append((seat, action))
        state = E.apply(state, seat, action)
    return out


def with_tokens(state: Any, plan: list[tuple[int, dict]]) -> list[tuple[int, dict, str]]:
    """Each move of ``plan`` with the token of the page its player clicks it on (the
    mover's view before it, ``games.pages.view_token``), which site.js sends along."""
    from games.pages import view_token
    from tal.engine import ENGINE as E

    out = []
    for seat, action in plan:
        out.append((seat, action, view_token(E.view(state, seat))))
        state = E.apply(state, seat, action)
    return out


def tal_game(users: list[Any], moves: int, rng: random.Random) -> Any:
    """A two-player Tal game played through the site's code up to ``moves`` actions."""
    from games import play, registry, replay

    for _ in range(10):
        game = play.create_game(
            users[0], registry.get("tal"), title=f"Tal at {moves}", players=2,
            options={}, time_limit_days=30, private=False,
        )  # fmt: skip
        play.join(game.pk, users[1])
        game.refresh_from_db()
        by_seat = {s.number: s.user for s in game.seats.all()}
        todo = plan_moves(replay.current_state(game), moves, rng)
        if len(todo) < moves:
            continue  # that game would end too early: another seed
        for seat, action in todo:
            play.act(game.pk, by_seat[seat], action, None)
        game.refresh_from_db()
        return game
    raise RuntimeError(f"no Tal game lasted {moves} actions")


@dataclass
class Site:
    users: list[Any]
    cookies: dict[int, str]  # user pk -> Cookie header
    csrf: str
    short: Any  # Tal at move 10
    long: Any  # Tal at move ~1,000
    finished: Any  # Tal at move 10, then resigned: bench0's finished game
    act_games: list[Any]
    act_plans: list[list[tuple[int, dict, str]]]
    seat_users: list[dict[int, Any]]


def seed(threads: int, long_moves: int, act_moves: int) -> Site:
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games import play, replay

    users = [User.objects.create_user(f"bench{i}", f"bench{i}@example.invalid") for i in (0, 1)]
    rng = random.Random(12)
    short = tal_game(users, 10, rng)
    finished = tal_game(users, 10, rng)
    play.resign(finished.pk, users[1])
    finished.refresh_from_db()
    started = time.perf_counter()
    long = tal_game(users, long_moves, rng)
    print(
        f"  a Tal game of {long.move_count} moves played in {time.perf_counter() - started:.0f} s"
    )
    act_games = [tal_game(users, 10, rng) for _ in range(threads)]
    act_plans, seat_users = [], []
    for game in act_games:
        seat_users.append({s.number: s.user for s in game.seats.all()})
        act_plans.append(
            with_tokens(
                replay.current_state(game), plan_moves(replay.current_state(game), act_moves, rng)
            )
        )
    # bench0 plays every third of these: "my games" (20 finished) and the archive's "mine"
    # (30 a page) show full lists already here, so that the 100,000 games added later change
    # the size of the database, not the size of the page it is compared with.
    call_command("bench_fill", games=100, moves=1000, user="bench0", every=3, yes=True,
                 stdout=open(os.devnull, "w"))  # fmt: skip
    # The lobby lists games waiting for players: a few, created by other users.
    from games import registry

    for i, creator in enumerate(User.objects.filter(username__startswith="benchpool")[:12]):
        kind = "tal" if i % 2 else "siam"
        play.create_game(
            creator, registry.get(kind), title=f"Open {i}", players=2 + i % 3,
            options={}, time_limit_days=3, private=False,
        )  # fmt: skip
    csrf = secrets.token_hex(16)  # 32 characters: a valid unmasked CSRF secret
    cookies = {}
    for user in users:
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        cookies[user.pk] = f"sessionid={session}; csrftoken={csrf}"
    return Site(users, cookies, csrf, short, long, finished, act_games, act_plans, seat_users)


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(env: dict[str, str], port: int) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    proc = subprocess.Popen(
        [str(gunicorn), "config.wsgi", "--workers", "2", "--worker-class", "sync",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"],
        cwd=ROOT, env={**os.environ, **env},
    )  # fmt: skip
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn did not start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("gunicorn did not answer within 60 s")


# --------------------------------------------------------------------------- the client


class Fail(Exception):
    pass


def request(
    port: int, method: str, path: str, cookie: str, csrf: str = "",
    body: dict | None = None, htmx: bool = False, expect: int = 200, as_json: bool = False,
) -> tuple[float, int]:  # fmt: skip
    """One request on a new connection (sync workers close it anyway): (seconds, bytes).
    ``as_json``: the body as JSON, as an API client sends it, rather than as a form."""
    headers = {"Cookie": cookie, "Accept-Language": "en"}
    data = None
    if body is not None:
        if as_json:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        else:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["X-CSRFToken"] = csrf
    if htmx:
        headers["HX-Request"] = "true"
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        content = response.read()
    finally:
        conn.close()
    took = time.perf_counter() - start
    if response.status != expect:
        raise Fail(f"{method} {path}: {response.status} (expected {expect}) {content[:300]!r}")
    return took, len(content)


@dataclass
class Figure:
    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        # The median: one request that meets a full garbage collection, an fsync or
        # a burst of the other client must not move a figure of 30 requests.
        return statistics.median(self.times)

    @property
    def rate(self) -> float:  # requests per second of one client (closed loop)
        return 1 / self.median


class Bench:
    def __init__(self, port: int, site: Site, threads: int, per_round: int, seconds: float):
        self.port, self.site, self.threads = port, site, threads
        self.per_round, self.seconds = per_round, seconds
        self.figures: dict[str, Figure] = {}
        self.lock = threading.Lock()
        self.act_pos = [0] * threads

    def record(self, name: str, took: float, size: int) -> None:
        with self.lock:
            fig = self.figures.setdefault(name, Figure())
            fig.times.append(took)
            fig.sizes.append(size)

    def get(self, path: str, user: Any = None, expect: int = 200) -> tuple[float, int]:
        user = user or self.site.users[0]
        return request(self.port, "GET", path, self.site.cookies[user.pk], expect=expect)

    def run(self, name: str, one: Any, count: int | None = None) -> None:
        """``count`` calls of ``one(thread)`` spread over the threads, bounded in time."""
        count = count or self.per_round
        left = [count]
        deadline = time.perf_counter() + self.seconds

        def worker(t: int) -> None:
            while time.perf_counter() < deadline:
                with self.lock:
                    if left[0] <= 0:
                        return
                    left[0] -= 1
                if one(t) is False:
                    return

        pool = [threading.Thread(target=worker, args=(t,)) for t in range(self.threads)]
        for th in pool:
            th.start()
        for th in pool:
            th.join()

    def page(self, name: str, path: str, expect: int = 200) -> Any:
        """One request for ``path``, each right after one for the trivial view, which
        is recorded beside it (``name~trivial``): a figure and its yardstick are
        measured at the same moments, whatever the machine's speed is doing then."""

        def one(t: int) -> None:
            self.record(f"{name}~trivial", *self.get(TRIVIAL))
            self.record(name, *self.get(path, expect=expect))

        return one

    def act(self, t: int) -> bool:
        """One move of game ``t`` (POST act as HTMX sends it), then the opponent's page."""
        return self.move(t, "act")

    def act_json(self, t: int) -> bool:
        """One move of game ``t`` as an API client sends it: the same write, answered
        with a few bytes of JSON instead of the new board. What a move costs with the
        drawing of its answer left out: the floor of the round trip."""
        return self.move(t, "act_json")

    def move(self, t: int, name: str) -> bool:
        game = self.site.act_games[t]
        plan = self.site.act_plans[t]
        if self.act_pos[t] >= len(plan):
            return False
        seat, action, token = plan[self.act_pos[t]]
        self.act_pos[t] += 1
        users = self.site.seat_users[t]
        user = users[seat]
        # As site.js sends a click: the token of the page it was made on, the board's
        # request id and the page's chat count (these games have no chat).
        body = {"version": token, "request_id": secrets.token_hex(12)}
        if name == "act":
            body.update(action=json.dumps(action), c="0")
        else:
            body.update(action=action)
        took, size = request(
            self.port, "POST", f"/g/{game.pk}/act", self.site.cookies[user.pk],
            self.site.csrf, body, htmx=name == "act", as_json=name == "act_json",
        )  # fmt: skip
        self.record(name, took, size)
        self.insert(f"insert~{name}")  # the yardstick of the move, right after it
        other = users[1 - seat]
        self.record("after_move~trivial", *self.get(TRIVIAL, other))
        self.record("after_move", *self.get(f"/g/{game.pk}/", other))
        return True

    def insert(self, name: str) -> None:
        took, size = request(
            self.port, "POST", "/bench/insert", self.site.cookies[self.site.users[0].pk],
            self.site.csrf, {"game": self.site.short.pk},
        )  # fmt: skip
        self.record(name, took, size)


def halfway(game: Any, user: Any) -> int:
    """The middle of ``game`` in ``user``'s move numbers: ``?at`` counts the moves the
    viewer sees, without the other seat's secret plan clicks (``games.numbering``)."""
    from games.numbering import numbering

    seat = game.seats.get(user=user).number
    return numbering(game, seat).total // 2


def measure(bench: Bench, rounds: int, phase: str, full: bool) -> None:
    s = bench.site
    short, long = s.short, s.long
    pages = {  # each paired with the trivial view (Bench.page)
        "game": f"/g/{short.pk}/",
        # the same length of game, over: its rematch offer, the next game, the review
        "game_finished": f"/g/{s.finished.pk}/",
        "lobby": "/",
        "my": "/my/",
        "archive": "/archive/",
        "archive_mine": "/archive/?mine=1",
    }
    if full:
        pages.update(
            {
                "poll": f"/g/{short.pk}/poll?v={short.version}&c={short.chat_count}",
                "game_long": f"/g/{long.pk}/",
                "history": f"/g/{long.pk}/?at={halfway(long, s.users[0])}",
            }
        )
    for name, path in pages.items():  # warm up: the first look at a page is not measured
        bench.get(path, expect=204 if name == "poll" else 200)
    for _ in range(rounds):
        for name, path in pages.items():
            bench.run(
                f"{phase}:{name}",
                bench.page(f"{phase}:{name}", path, 204 if name == "poll" else 200),
            )
        if full:
            bench.run("act", bench.act)
            bench.run("act_json", bench.act_json)


# --------------------------------------------------------------------------- report


def report(bench: Bench, fill_games: int) -> None:
    f = bench.figures
    trivial = f["small:game~trivial"]
    print(
        f"\ntrivial signed-in view: {trivial.rate:.0f} requests/s per client "
        f"({trivial.median * 1000:.1f} ms, {len(trivial.times)} requests)"
    )
    print(f"{'figure (median ms per request)':52} {'ms':>7} {'KB':>6} {'ratio':>6}  goal")

    def line(label: str, fig: Figure, ratio: float, goal: str = "", ok: bool | None = None):
        verdict = "" if ok is None else ("met" if ok else "MISSED")
        size = sum(fig.sizes) / len(fig.sizes) / 1024
        print(f"{label:52} {fig.median * 1000:7.1f} {size:6.1f} {ratio:6.2f}  {goal} {verdict}")

    def vs_trivial(key: str, label: str, goal: float | None = None) -> None:
        name = f"small:{key}" if f"small:{key}" in f else key
        fig = f[name]
        ratio = fig.rate / f[f"{name}~trivial"].rate
        if goal is None:
            line(label, fig, ratio)
        else:
            line(label, fig, ratio, f">= {goal}", ratio >= goal)

    print("requests/s as a fraction of the trivial view's:")
    vs_trivial("game", GOALS["game"][0], GOALS["game"][1])
    vs_trivial("after_move", "game page after a new move (opponent's first look)")
    vs_trivial("poll", GOALS["poll"][0], GOALS["poll"][1])
    long = bench.site.long
    half = halfway(long, bench.site.users[0])
    vs_trivial("history", f"history ?at={half} (game of {long.move_count} moves)")
    vs_trivial("lobby", "lobby")
    vs_trivial("my", "my games")
    vs_trivial("archive", "archive")
    vs_trivial("archive_mine", "archive ?mine=1")
    ratio = f["act"].rate / f["insert~act"].rate
    print("the move round trip against the one-INSERT POST:")
    line("one-INSERT POST", f["insert~act"], 1.0)
    line("move round trip (POST act -> new board)", f["act"], ratio, ">= 0.5", ratio >= 0.5)
    floor = f["act_json"].rate / f["insert~act_json"].rate
    line("the same move answered in JSON (no board drawn)", f["act_json"], floor)
    # Each against its own INSERT POST, measured beside it: the drift of the machine cancels.
    htmx = ratio / floor
    line("the move with the new board vs answered in JSON", f["act"], htmx, ">= 0.7",
         htmx >= 0.7)  # fmt: skip
    print("cost (time per request) relative, goal <= 1.2:")

    def cost(name: str) -> float:
        return f[name].median / f[f"{name}~trivial"].median

    over = cost("small:game_finished") / cost("small:game")
    line("finished game page vs running (Tal, move 10)", f["small:game_finished"], over,
         "<= 1.2", over <= 1.2)  # fmt: skip
    longer = cost("small:game_long") / cost("small:game")
    line(f"game page at move {long.move_count} vs move 10", f["small:game_long"], longer,
         "<= 1.2", longer <= 1.2)  # fmt: skip

    for key, label in (("lobby", "lobby"), ("archive", "archive"), ("archive_mine",
                       "archive ?mine=1"), ("my", "my games"), ("game", "game page")):  # fmt: skip
        small, big = cost(f"small:{key}"), cost(f"big:{key}")
        line(f"{label} with {fill_games:,} finished games vs 100", f[f"big:{key}"],
             big / small, "<= 1.2", big / small <= 1.2)  # fmt: skip


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (make bench)")
    parser.add_argument("--requests", type=int, help="requests per figure and round")
    parser.add_argument("--rounds", type=int, help="rounds (figures are interleaved)")
    parser.add_argument("--seconds", type=float, default=30, help="time bound per batch")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--long", type=int, default=1000, help="moves of the long game")
    parser.add_argument("--fill-games", type=int, default=100_000)
    parser.add_argument("--fill-moves", type=int, default=1_000_000)
    parser.add_argument(
        "--port", type=int, help="gunicorn's port on 127.0.0.1 (default: a free one)"
    )
    args = parser.parse_args()
    # Many short rounds rather than a few long ones: the figures compared are measured
    # close together in time, so a burst of the machine's other work moves them alike.
    per_round = args.requests or (12 if args.quick else 25)
    rounds = args.rounds or (5 if args.quick else 8)
    act_moves = 2 * per_round * rounds // args.threads + 5  # act and act_json

    tmp = Path(tempfile.mkdtemp(prefix="site-load-"))
    target = prepare(tmp)
    os.environ.update(target.env)
    proc = None
    try:
        import django

        django.setup()
        from django.core.management import call_command

        print(f"Load benchmark on {target.description}; gunicorn 2 sync workers, "
              f"{args.threads} client threads, {rounds} rounds of {per_round} requests "
              f"per figure.")  # fmt: skip
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        print("seeding (through games.play) ...")
        site = seed(args.threads, args.long, act_moves)
        proc = start_gunicorn(target.env, args.port or free_port())
        port = int(proc.args[proc.args.index("--bind") + 1].rsplit(":", 1)[1])
        bench = Bench(port, site, args.threads, per_round, args.seconds)
        print("measuring with 100 finished games ...")
        measure(bench, rounds, "small", full=True)
        print(f"adding {args.fill_games:,} finished games and {args.fill_moves:,} moves ...")
        started = time.perf_counter()
        call_command("bench_fill", games=args.fill_games - 100, moves=args.fill_moves - 1000,
                     user="bench0", every=100, yes=True, stdout=open(os.devnull, "w"))  # fmt: skip
        print(f"  filled in {time.perf_counter() - started:.0f} s; measuring again ...")
        measure(bench, rounds, "big", full=False)
        report(bench, args.fill_games)
    except Fail as error:
        sys.exit(f"benchmark failed: {error}")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
        from django.db import connections

        connections.close_all()
        target.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
