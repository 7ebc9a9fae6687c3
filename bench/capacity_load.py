"""The load generator of ``bench/capacity.py``: simulated players in one process of
their own (one asyncio loop on uvloop), bounded in time and count, only against
127.0.0.1.

Started by ``capacity.py`` with the path of a JSON spec (the app server's port, the
accounts' session cookies and games, the mix, the steps); it writes one JSON line per
event to stdout and, after each step, waits for a line on stdin: ``next`` or ``stop``.

Each connected player is one task and keeps one live stream open, as a browser tab
does: the game page's (``/g/N/live``) or, on any other page, their own
(``/live/me``), read over a raw HTTP/1.1 connection of its own. What the page's
``live.js`` does on an event, the player does: a game event newer than the page ->
``GET /g/N/live/changes`` with the page's poll query (one at a time, again if more
came meanwhile); a badge event -> ``GET /live/badge``. The player's other requests
(pages, moves, chat lines, those fetches) go through httpx clients with keep-alive
connections (no cookie jar: each request carries its player's cookie). One raw
connection per stream rather than httpx-sse: httpcore's pool looks through all of
its connections for every request, and ten thousand streams in a pool made every
other request pay for them.

The moves are real moves of King of Siam games (two seats) that only these players
play: the generator keeps each game's state with the rules engine (from its seed) and
plays a random legal action of the seat to move, with the token of the page the
player has (so a page behind the game is fetched first, as a player who sees the
board move before moving).
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import resource
import secrets
import sys
import time
from collections import defaultdict
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from siam.engine import ENGINE  # noqa: E402  (pure Python: no Django here)

POLL = re.compile(r'/g/\d+/poll\?(v=(\d+)&amp;c=(\d+)[^"]*)"')
TOKEN = re.compile(r'name="version" value="(v[0-9a-f]+)"')
PAGE_KINDS = ("game page", "lobby", "my games")


class RejectAll(__import__("http.cookiejar").cookiejar.DefaultCookiePolicy):
    """Shared clients keep no cookie: every request names its player's session."""

    def set_ok(self, cookie, request):
        return False

    def return_ok(self, cookie, request):
        return False


def no_jar():
    import http.cookiejar

    return http.cookiejar.CookieJar(policy=RejectAll())


class Game:
    def __init__(self, gid: int, seed: int, seats: list[int]) -> None:
        self.gid, self.seats = gid, seats  # seats[n]: the player index in seat n
        self.state = ENGINE.setup(2, {"map": "siam"}, seed)
        self.version = 0  # the newest version a move of ours was answered with
        self.busy = False  # a move is under way
        self.broken = False  # a move's outcome is unknown: left alone

    def mover(self) -> int | None:
        """The player index of the seat to move, None when the game is over."""
        if self.broken or ENGINE.result(self.state) is not None:
            return None
        active = sorted(ENGINE.active_seats(self.state))
        return self.seats[active[0]] if active else None


class Record:
    """What the players saw, kept per step."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.times: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.refused_moves = 0
        self.retried = 0
        self.no_turn = 0
        self.stream_refused: dict[int, int] = defaultdict(int)
        self.stream_ended = 0
        self.samples: list[str] = []

    def took(self, kind: str, at: float, seconds: float) -> None:
        self.times[kind].append((at, seconds))

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.samples) < 5:
            self.samples.append(f"{kind}: {what}"[:300])


class Stream:
    """One open stream of a player's page, read as EventSource reads it."""

    def __init__(self, gen: Generator, person: Person, path: str, game: int | None) -> None:
        self.gen, self.person, self.path, self.game = gen, person, path, game
        self.ready_at: float | None = None  # headers came: the stream is subscribed
        self.closed_at: float | None = None
        self.events: list[tuple[int, float]] = []  # (version, when) of game events
        self.badges: list[float] = []  # when badge events came
        self.writer = None
        self.task = asyncio.get_running_loop().create_task(self.run())
        if game is not None:
            gen.watching[game].append(self)
        person.streams.append(self)

    async def run(self) -> None:
        gen = self.gen
        try:
            reader, self.writer = await asyncio.open_connection("127.0.0.1", gen.port)
            self.writer.write(
                (
                    f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Accept: text/event-stream\r\nCookie: {self.person.cookie}\r\n"
                    "Accept-Language: en\r\n\r\n"
                ).encode()
            )
            started = time.monotonic()
            line = await reader.readline()
            status = int(line.split()[1]) if line else 0
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            if status != 200:
                gen.record.stream_refused[status] += 1
                return
            self.ready_at = time.monotonic()
            gen.record.took("stream", self.ready_at, self.ready_at - started)
            buffer = b""
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await reader.readexactly(size + 2))[:-2]
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.event(block.decode())
            if self.closed_at is None:
                gen.record.stream_ended += 1
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            if self.closed_at is None:
                gen.record.error("stream", repr(error))
        finally:
            if self.writer is not None:
                self.writer.close()
            if self.closed_at is None:
                self.closed_at = time.monotonic()

    def event(self, block: str) -> None:
        fields = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        kind = fields.get("event")
        if kind == "game":
            version, chat = (int(x) for x in fields["data"].split())
            self.events.append((version, time.monotonic()))
            self.person.told_game(self.game, version, chat)
        elif kind == "badge":
            self.badges.append(time.monotonic())
            self.person.told_badge()

    def close(self) -> None:
        if self.closed_at is None:
            self.closed_at = time.monotonic()
        self.task.cancel()
        if self.writer is not None:
            self.writer.close()


class Person:
    def __init__(self, gen: Generator, index: int, cookie: str, games: list[int], spectator):
        self.gen, self.index, self.cookie, self.games = gen, index, cookie, games
        self.spectator = spectator
        self.rng = random.Random(f"{gen.seed}:{index}")
        self.connected = False
        self.page: int | None = None  # the game whose page is open; None: another page
        self.stream: Stream | None = None
        self.streams: list[Stream] = []  # the recent ones, for the update latencies
        self.seen: dict[str, object] = {}  # the open game page: v, c, query, token
        self.wanted: tuple[int, int] | None = None
        self.lock = asyncio.Lock()  # one request of the page at a time (htmx's)
        self.badge_fetching = self.badge_again = False
        self.task: asyncio.Task | None = None

    # -- requests

    async def request(self, kind: str, method: str, path: str, **kwargs) -> httpx.Response | None:
        gen = self.gen
        headers = {"Cookie": self.cookie, "Accept-Language": "en", **kwargs.pop("headers", {})}
        if method == "POST":
            headers["X-CSRFToken"] = gen.csrf
        started = time.monotonic()
        for attempt in (1, 2):
            try:
                answer = await gen.client().request(method, path, headers=headers, **kwargs)
                break
            except (httpx.RemoteProtocolError, httpx.ReadError) as error:
                # A kept-alive connection the server closed as the request went out
                # (uvicorn closes idle ones after 5 s): a browser sends a GET again.
                if method != "GET" or attempt == 2:
                    gen.record.error(kind, f"{method} {path}: {error!r}")
                    return None
                gen.record.retried += 1
            except httpx.HTTPError as error:
                gen.record.error(kind, f"{method} {path}: {error!r}")
                return None
        done = time.monotonic()
        if answer.status_code >= 500:
            gen.record.error(kind, f"{method} {path} -> {answer.status_code}")
            return None
        gen.record.took(kind, done, done - started)
        return answer

    def read_page(self, text: str) -> None:
        found = POLL.search(text)
        if found:
            self.seen["v"], self.seen["c"] = int(found.group(2)), int(found.group(3))
            self.seen["query"] = html.unescape(found.group(1))
        token = TOKEN.search(text)
        if token:
            self.seen["token"] = token.group(1)

    # -- the page and its stream

    def open_stream(self, path: str, game: int | None) -> None:
        if self.stream is not None:
            self.stream.close()
        self.stream = Stream(self.gen, self, path, game)

    async def arrive(self, with_page: bool) -> None:
        """A player comes (with a session): the lobby, and its stream."""
        self.connected = True
        self.page, self.seen, self.wanted = None, {}, None
        if with_page:
            await self.request("lobby", "GET", "/")
        self.open_stream("/live/me", None)
        self.task = asyncio.get_running_loop().create_task(self.live())

    def leave(self) -> None:
        self.connected = False
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        self.page = None

    async def open_game(self, game: int) -> None:
        answer = await self.request("game page", "GET", f"/g/{game}/")
        if answer is None or answer.status_code != 200:
            return
        self.page, self.seen, self.wanted = game, {}, None
        self.read_page(answer.text)
        if "v" in self.seen:
            self.open_stream(f"/g/{game}/live?v={self.seen['v']}&c={self.seen['c']}", game)

    async def open_other(self, kind: str, path: str) -> None:
        await self.request(kind, "GET", path)
        self.page, self.seen, self.wanted = None, {}, None
        self.open_stream("/live/me", None)

    # -- what the stream tells

    def told_game(self, game: int, version: int, chat: int) -> None:
        if game != self.page:
            return
        if (version, chat) > (self.seen.get("v", 0), self.seen.get("c", 0)):
            self.wanted = (version, chat)
            asyncio.get_running_loop().create_task(self.catch_up())

    async def catch_up(self) -> None:
        async with self.lock:
            await self.fetch_changes()

    async def fetch_changes(self) -> None:
        """(Holding the page's lock.) The change the page lacks, as live.js fetches it."""
        while self.wanted and self.page is not None and "query" in self.seen:
            if (self.seen["v"], self.seen["c"]) >= self.wanted:
                self.wanted = None
                return
            game, wanted = self.page, self.wanted
            answer = await self.request(
                "changes",
                "GET",
                f"/g/{game}/live/changes?{self.seen['query']}",
                headers={"HX-Request": "true"},
            )
            if answer is None or game != self.page:
                return
            if answer.status_code == 200:
                self.read_page(answer.text)
            if self.wanted == wanted:
                self.wanted = None  # the answer showed it (or a 204: nothing new)

    def told_badge(self) -> None:
        if self.badge_fetching:
            self.badge_again = True
            return
        asyncio.get_running_loop().create_task(self.fetch_badge())

    async def fetch_badge(self) -> None:
        self.badge_fetching = True
        try:
            while True:
                self.badge_again = False
                await self.request("badge", "GET", "/live/badge", headers={"HX-Request": "true"})
                if not self.badge_again:
                    return
        finally:
            self.badge_fetching = False

    # -- what the player does

    async def live(self) -> None:
        mix = self.gen.mix
        rates = {"browse": 1 / mix["page_every"], "leave": 1 / mix["session"]}
        if not self.spectator:
            rates.update(move=1 / mix["move_every"], chat=1 / mix["chat_every"])
        names, weights = list(rates), list(rates.values())
        total = sum(weights)
        try:
            while self.connected and not self.gen.stopping:
                await asyncio.sleep(self.rng.expovariate(total))
                if not self.connected or self.gen.stopping:
                    return
                what = self.rng.choices(names, weights)[0]
                if what == "leave":
                    self.gen.replace(self)
                    return
                await getattr(self, what)()
        except asyncio.CancelledError:
            pass
        except Exception as error:  # a player's bug must not end the run silently
            self.gen.record.error("player", repr(error))

    async def browse(self) -> None:
        mix, rng = self.gen.mix, self.rng
        if self.spectator:
            await self.open_game(self.gen.game_to_watch(rng))
            return
        roll = rng.random()
        if roll < mix["own_game"]:
            await self.open_game(rng.choice(self.games))
        elif roll < mix["own_game"] + mix["watch_game"]:
            await self.open_game(self.gen.game_to_watch(rng))
        elif roll < mix["own_game"] + mix["watch_game"] + mix["lobby"]:
            await self.open_other("lobby", "/")
        else:
            await self.open_other("my games", "/my/")

    async def move(self) -> None:
        gen = self.gen
        mine = [g for g in self.games if gen.games[g].mover() == self.index]
        mine = [g for g in mine if not gen.games[g].busy]
        if not mine:
            gen.record.no_turn += 1
            return
        gid = self.page if self.page in mine else self.rng.choice(mine)
        game = gen.games[gid]
        game.busy = True
        try:
            if self.page != gid:
                await self.open_game(gid)
            async with self.lock:
                if self.page != gid or "token" not in self.seen:
                    gen.record.error("move", f"game {gid}: no page to move on")
                    return
                if self.seen["v"] < game.version:  # the board has not moved here yet
                    self.wanted = (game.version, self.seen["c"])
                    await self.fetch_changes()
                seat = game.seats.index(self.index)
                action = self.rng.choice(ENGINE.legal_actions(game.state, seat))
                data = {
                    "action": json.dumps(action),
                    "version": self.seen["token"],
                    "request_id": secrets.token_hex(12),
                    "c": str(self.seen["c"]),
                }
                sent = time.monotonic()
                answer = await self.request(
                    "move", "POST", f"/g/{gid}/act", data=data, headers={"HX-Request": "true"}
                )
                if answer is None:
                    game.broken = True  # done or not: this game is left alone
                    return
                if answer.status_code != 200:
                    gen.record.refused_moves += 1
                    if len(gen.record.samples) < 5:
                        gen.record.samples.append(f"move {answer.status_code}: {answer.text[:200]}")
                    return
                answered = time.monotonic()
                before = self.seen["v"]
                self.read_page(answer.text)
                game.state = ENGINE.apply(game.state, seat, action)
                game.version = self.seen["v"]
                if self.seen["v"] > before:
                    gen.moves.append((gid, self.seen["v"], sent, answered, self.stream))
        finally:
            game.busy = False

    async def chat(self) -> None:
        if self.page not in self.games:
            return
        async with self.lock:
            if self.page not in self.games or "c" not in self.seen:
                return
            gid = self.page
            data = {
                "text": f"Good move! ({self.rng.randrange(1000)})",
                "request_id": secrets.token_hex(12),
                "c": str(self.seen["c"]),
            }
            answer = await self.request(
                "chat", "POST", f"/g/{gid}/chat", data=data, headers={"HX-Request": "true"}
            )
            if answer is not None and answer.status_code == 200 and self.page == gid:
                self.read_page(answer.text)


class Generator:
    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.port, self.csrf, self.mix = spec["port"], spec["csrf"], spec["mix"]
        self.seed = spec["seed"]
        self.rng = random.Random(self.seed)
        self.record = Record()
        self.stopping = False
        self.watching: dict[int, list[Stream]] = defaultdict(list)
        self.moves: list[tuple[int, int, float, float, Stream | None]] = []
        self.games = {int(g): Game(int(g), d["seed"], d["seats"]) for g, d in spec["games"].items()}
        self.people = [
            Person(self, i, p["cookie"], p["games"], p["spectator"])
            for i, p in enumerate(spec["people"])
        ]
        self.idle = {True: [], False: []}  # spectator? -> people not connected
        for person in self.people:
            self.idle[person.spectator].append(person)
        for pool in self.idle.values():
            self.rng.shuffle(pool)
        self.connected: set[Person] = set()
        self.clients: list[httpx.AsyncClient] = []
        self.turn = 0

    def client(self) -> httpx.AsyncClient:
        self.turn = (self.turn + 1) % len(self.clients)
        return self.clients[self.turn]

    def game_to_watch(self, rng: random.Random) -> int:
        """A game someone else plays: one of the games moved in lately, if any."""
        recent = self.moves[-200:]
        if recent and rng.random() < 0.8:
            return rng.choice(recent)[0]
        return rng.choice(list(self.games))

    async def connect(self, with_page: bool) -> None:
        spectator = self.rng.random() < self.mix["spectators"]
        pool = self.idle[spectator] or self.idle[not spectator]
        person = pool.pop()
        self.connected.add(person)
        await person.arrive(with_page)

    def replace(self, person: Person) -> None:
        """A player leaves; another (of the same role) comes."""
        person.leave()
        self.connected.discard(person)
        self.idle[person.spectator].insert(0, person)
        asyncio.get_running_loop().create_task(self.connect(with_page=True))

    def updates(self, since: float, until: float) -> tuple[list[float], list[float], int, int]:
        """Per move answered in [since, until): the time from its answer until the event
        reached each other open stream it concerns (0 when the event came first): the
        streams of the game's page (its game event) and the other player's stream on any
        page (the game event there, or the badge event on another page). Only streams
        open before the move was sent that stayed open. (latencies, the same from the
        move's sending, missed, moves)"""
        latencies, from_sent, missed, moves = [], [], 0, 0
        for gid, version, sent, answered, own in self.moves:
            if not since <= answered < until:
                continue
            moves += 1
            game = self.games[gid]
            mover = own.person if own is not None else None
            streams = set(self.watching.get(gid, ()))
            for index in game.seats:
                person = self.people[index]
                if person is not mover:
                    streams.update(person.streams)
            for stream in streams:
                if stream is own or stream.ready_at is None or stream.ready_at > sent:
                    continue
                if stream.closed_at is not None and stream.closed_at < answered + 5:
                    continue
                times = [t for v, t in stream.events if v >= version and t >= sent]
                if stream.game != gid and stream.person is not mover:
                    times += [t for t in stream.badges if t >= sent]
                if not times:
                    missed += 1
                else:
                    latencies.append(max(0.0, min(times) - answered))
                    from_sent.append(min(times) - sent)
        return latencies, from_sent, missed, moves

    def prune(self, before: float) -> None:
        for gid in list(self.watching):
            kept = [s for s in self.watching[gid] if s.closed_at is None or s.closed_at > before]
            if kept:
                self.watching[gid] = kept
            else:
                del self.watching[gid]
        self.moves = [m for m in self.moves if m[3] > before - 60]
        for person in self.people:
            person.streams = [
                s for s in person.streams if s.closed_at is None or s.closed_at > before
            ]

    async def run(self) -> None:
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        self.clients = [
            httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{self.port}",
                limits=limits,
                timeout=60,
                cookies=no_jar(),
            )
            for _ in range(self.spec["clients"])
        ]
        loop = asyncio.get_running_loop()
        ramp_rate, hold = self.spec["ramp_rate"], self.spec["hold"]
        await self.warm_up()
        for step, target in enumerate(self.spec["steps"]):
            began = time.monotonic()
            while len(self.connected) < target:
                batch = min(target - len(self.connected), max(1, int(ramp_rate / 10)))
                await asyncio.gather(*(self.connect(with_page=False) for _ in range(batch)))
                await asyncio.sleep(0.1)
            await asyncio.sleep(self.spec["settle"])
            ramped = time.monotonic() - began
            self.record.reset()
            cpu = resource.getrusage(resource.RUSAGE_SELF)
            emit(event="hold", step=step, players=len(self.connected), ramped=ramped)
            start = time.monotonic()
            await asyncio.sleep(hold)
            end = time.monotonic()
            used = resource.getrusage(resource.RUSAGE_SELF)
            emit(event="held", step=step, players=len(self.connected), **self.figures(start, end))
            await asyncio.sleep(3)  # the last moves' events arrive
            latencies, from_sent, missed, moves = self.updates(start, end)
            streams = sum(1 for p in self.connected if p.stream and p.stream.ready_at)
            emit(
                event="step",
                step=step,
                players=len(self.connected),
                streams=streams,
                updates=summary(latencies),
                updates_from_sent=summary(from_sent),
                missed=missed,
                moves_measured=moves,
                cpu=used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime,
                seconds=end - start,
            )
            self.prune(end - 30)
            answer = await loop.run_in_executor(None, sys.stdin.readline)
            if answer.strip() != "next":
                break
        self.stopping = True
        for person in list(self.connected):
            person.leave()
            if person.task is not None:
                person.task.cancel()
        for client in self.clients:
            await client.aclose()

    async def warm_up(self) -> None:
        """A fresh process compiles its templates and queries on first use: some players
        go through every kind of request before anything is measured (they stay)."""
        people = [p for p in self.idle[False][-self.spec["warm"] :]]
        for person in people:
            self.idle[False].remove(person)
            self.connected.add(person)

        async def once(person: Person) -> None:
            await person.arrive(with_page=True)
            await person.open_other("my games", "/my/")
            await person.open_game(person.games[0])
            await person.move()
            await person.chat()

        await asyncio.gather(*(once(p) for p in people))
        await asyncio.sleep(2)
        emit(
            event="warm",
            players=len(people),
            errors=dict(self.record.errors),
            samples=self.record.samples,
        )

    def figures(self, start: float, end: float) -> dict:
        r = self.record
        kinds = {
            kind: summary([s for at, s in times if start <= at < end])
            for kind, times in r.times.items()
        }
        pages = [s for k in PAGE_KINDS for at, s in r.times.get(k, ()) if start <= at < end]
        return {
            "kinds": kinds,
            "pages": summary(pages),
            "errors": dict(r.errors),
            "refused_moves": r.refused_moves,
            "retried": r.retried,
            "no_turn": r.no_turn,
            "moves_ok": sum(1 for m in self.moves if start <= m[3] < end),
            "stream_refused": {str(k): v for k, v in r.stream_refused.items()},
            "stream_ended": r.stream_ended,
            "samples": r.samples,
        }


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(p: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 1)

    return {"n": len(ordered), "p50": at(50), "p95": at(95), "p99": at(99), "max": at(100)}


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    deadline = spec["deadline"]  # bounded: never longer than the orchestrator allows

    async def bounded() -> None:
        try:
            async with asyncio.timeout(deadline):
                await Generator(spec).run()
        except TimeoutError:
            emit(event="timeout")

    asyncio.run(bounded())


if __name__ == "__main__":
    main()
