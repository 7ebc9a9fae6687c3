"""The smoke test of the container image: a player's first minutes, through the TLS proxy.

Run by .ci/image against the image's web, worker and beat containers behind Caddy:

    python3 deploy/ci/smoke.py --url https://localhost:21443 --cafile root.crt \
        --mail-dir /tmp/mail --staff staff:password \
        --stop-worker "podman kill pbw-ci-worker" --start-worker "podman start pbw-ci-worker"

Part one, the site: two players sign up (the verification mail reaches the SMTP sink and
its link is followed), one creates a game, the other joins, each makes a move through
the board's own forms, and the turn mail of the second arrives. Part two, health: the
site says it is ready (/readyz); the worker is killed, /readyz answers 503 naming it and a
staff member sees the banner; the worker is started again and /readyz answers 200.
Standard library only: the host runs it, not the image. Each step prints its time.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import http.cookiejar
import json
import re
import shlex
import ssl
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import quote_plus, unquote, urljoin, urlsplit
from urllib.request import (
    HTTPCookieProcessor,
    HTTPRedirectHandler,
    HTTPSHandler,
    Request,
    build_opener,
)

PASSWORD = "smoke-test-password-7c1e"
HEALTH_CHECKS = {"database", "redis", "broker", "migrations", "worker", "beat", "outbox"}
VERSION = "1.0.0"
# What staff see on every page while the worker or beat is not seen (the ops side's banner).
BANNER = re.compile(r"""<[a-z]+\b[^>]*\bid=["']?ops-banner\b""")


class SmokeError(Exception):
    pass


@contextmanager
def step(name: str):
    started = time.monotonic()
    print(f"-- {name} ...", flush=True)
    yield
    print(f"   {name}: {time.monotonic() - started:.2f} s", flush=True)


def wait_until(what: str, check, timeout: float, interval: float = 0.5):
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise SmokeError(f"{what}: not within {timeout:.0f} s")
        time.sleep(interval)


class Forms(HTMLParser):
    """Every form of a page: its action, its id and the fields a browser would send."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "id": a.get("id", ""), "fields": {}})
            return
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    fields[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "image", "file"):
                fields[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            if self._select not in fields or "selected" in a:
                fields[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            fields[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def forms_of(html: str) -> list[dict]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def form_with(html: str, field: str) -> dict:
    for form in forms_of(html):
        if field in form["fields"]:
            return form
    raise SmokeError(f"no form with a field {field!r} on the page")


def form_to(html: str, prefix: str) -> dict:
    """The form that posts to an address starting with ``prefix``."""
    for form in forms_of(html):
        if unquote(urlsplit(form["action"]).path).startswith(prefix):
            return form
    raise SmokeError(f"no form posting to {prefix}... on the page")


class _NoRedirects(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One person's browser: cookies, CSRF like Django's own pages, no redirects followed
    unless asked (a redirect's target is part of what is checked)."""

    def __init__(self, base: str, context: ssl.SSLContext) -> None:
        self.base = base.rstrip("/")
        self.address = ""
        self.jar = http.cookiejar.CookieJar()
        self.opener = build_opener(
            HTTPSHandler(context=context), HTTPCookieProcessor(self.jar), _NoRedirects()
        )

    def request(self, path: str, data: dict | None = None, headers: dict | None = None):
        url = urljoin(self.base + "/", path)
        body = None
        # Header names as keyword arguments: HX_Request is sent as HX-Request.
        head = {"Accept-Language": "en"}
        head.update({k.replace("_", "-"): v for k, v in (headers or {}).items()})
        if data is not None:
            body = "&".join(
                f"{_quote(k)}={_quote(v)}" for k, v in data.items() if v is not None
            ).encode()
            head.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Referer": url,
                    "Origin": self.base,
                    "X-CSRFToken": self.cookie("csrftoken") or "",
                }
            )
        try:
            with self.opener.open(Request(url, data=body, headers=head), timeout=30) as answer:
                return answer.status, answer.headers, answer.read().decode()
        except HTTPError as error:
            return error.code, error.headers, error.read().decode(errors="replace")

    def get(self, path: str, follow: bool = True, **headers):
        for _ in range(5):
            status, head, body = self.request(path, headers=headers)
            if not (follow and status in (301, 302, 303, 307, 308)):
                return status, body
            path = head["Location"]
        raise SmokeError(f"too many redirects from {path}")

    def post(self, path: str, data: dict, **headers):
        status, head, body = self.request(path, data, headers)
        return status, head.get("Location", ""), body

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def submit(self, path: str, html: str, field: str, **values):
        """Post the form of ``html`` that has ``field``, with ``values`` filled in."""
        form = form_with(html, field)
        return self.post(form["action"] or path, {**form["fields"], **values})


def _quote(value) -> str:
    return quote_plus(str(value))


class MailSink:
    """The messages the SMTP sink wrote, one file each."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def messages(self, to: str) -> list[email.message.EmailMessage]:
        found = []
        for path in sorted(self.folder.glob("*.eml")):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if to in str(message.get("To", "")):
                found.append(message)
        return found

    def wait(self, to: str, what: str, match, timeout: float = 60):
        def arrived():
            return next((m for m in self.messages(to) if match(m)), None)

        return wait_until(f"{what} to {to}", arrived, timeout)


def text_of(message) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    return part.get_content() if part is not None else ""


class Smoke:
    def __init__(self, args) -> None:
        self.base = args.url.rstrip("/")
        self.context = ssl.create_default_context(cafile=args.cafile)
        self.mail = MailSink(args.mail_dir)
        self.args = args
        self.stamp = uuid.uuid4().hex[:6]

    def browser(self) -> Browser:
        return Browser(self.base, self.context)

    # Part one: the site.

    def sign_up(self, name: str) -> Browser:
        player = self.browser()
        address = f"{name}-{self.stamp}@example.org"
        status, page = player.get("/accounts/signup/")
        if status != 200:
            raise SmokeError(f"the sign-up page answered {status}")
        status, location, _ = player.submit(
            "/accounts/signup/",
            page,
            "password1",
            email=address,
            username=f"{name}-{self.stamp}",
            password1=PASSWORD,
            password2=PASSWORD,
            time_zone="Europe/Berlin",
        )
        if status != 302 or "confirm-email" not in location:
            raise SmokeError(f"signing up answered {status} to {location!r}")
        link = re.compile(re.escape(self.base) + r"/accounts/confirm-email/[^\s\"'<>]+")
        message = self.mail.wait(
            address, "the verification mail", lambda m: link.search(text_of(m))
        )
        url = link.search(text_of(message)).group(0)
        status, page = player.get(url)
        if status != 200:
            raise SmokeError(f"the verification link answered {status}")
        # The page signs the key anew: post its form, not to the link.
        form = form_to(page, "/accounts/confirm-email/")
        status, location, _ = player.post(form["action"], form["fields"])
        if status != 302:
            raise SmokeError(f"confirming the address answered {status}")
        status, page = player.get("/my/")
        if status != 200 or f"{name}-{self.stamp}" not in page:
            raise SmokeError(f"after confirming, {name} is not signed in ({status})")
        player.address = address
        # Both players look at the game (to see who moves first): without this setting a
        # turn mail waits until its player has left the game's page for five minutes.
        status, page = player.get("/settings/")
        status, location, _ = player.submit("/settings/", page, "notify_turn", notify_at_once="on")
        if status != 302:
            raise SmokeError(f"saving the settings answered {status}")
        return player

    def create_game(self, creator: Browser, joiner: Browser) -> str:
        status, page = creator.get("/new/siam/")
        if status != 200:
            raise SmokeError(f"the new game page answered {status}")
        status, location, _ = creator.submit(
            "/new/siam/", page, "players", title=f"Smoke {self.stamp}", players="2"
        )
        found = re.search(r"/g/(\d+)/", location)
        if status != 302 or not found:
            raise SmokeError(f"creating a game answered {status} to {location!r}")
        game = f"/g/{found.group(1)}/"
        status, location, _ = joiner.post(game + "join", {})
        if status != 302:
            raise SmokeError(f"joining the game answered {status}")
        return game

    @staticmethod
    def actions(board: str) -> list[dict]:
        return [f for f in forms_of(board) if "action" in f["fields"] and "version" in f["fields"]]

    def board(self, player: Browser, game: str) -> str:
        status, board = player.get(game + "board?text=1", HX_Request="true")
        if status != 200:
            raise SmokeError(f"the board answered {status}")
        return board

    def move(self, player: Browser, game: str, board: str) -> str:
        """The first action the board offers; returns the board the answer shows."""
        form = self.actions(board)[0]
        data = {**form["fields"], "request_id": uuid.uuid4().hex}
        # Answered with the board as text again, like the board it was chosen from.
        url = form["action"] + ("&" if "?" in form["action"] else "?") + "text=1"
        if "text=1" in form["action"]:
            url = form["action"]
        status, _, answer = player.post(url, data, HX_Request="true")
        if status != 200:
            raise SmokeError(f"a move offered by the board was answered {status}")
        return answer

    def turn_mail(self, player: Browser, title: str) -> None:
        subject = f"Your turn in “{title}”"

        def arrived(message):
            return str(message["Subject"]) == subject

        self.mail.wait(player.address, f"the mail {subject!r}", arrived, timeout=90)

    def play_two_moves(self, players: list[Browser], game: str) -> None:
        """Whoever is to move moves until the turn passes; the other is mailed, then
        moves in turn."""
        boards = [self.board(p, game) for p in players]
        first = next((i for i, b in enumerate(boards) if self.actions(b)), None)
        if first is None:
            raise SmokeError("nobody has an action to take in the new game")
        mover, other = players[first], players[1 - first]
        board = boards[first]
        with step("move of the first player"):
            for _ in range(20):
                board = self.move(mover, game, board)
                if not self.actions(board):
                    break
            else:
                raise SmokeError("the first player's turn did not end after 20 actions")
        with step("turn mail to the second player (through the worker)"):
            self.turn_mail(other, f"Smoke {self.stamp}")
        with step("move of the second player"):
            board = self.board(other, game)
            if not self.actions(board):
                raise SmokeError("the second player has no action after the first one's turn")
            self.move(other, game, board)

    # Part two: health (the ops side of issue 38: /readyz, heartbeats, the staff banner).

    def readyz(self) -> tuple[int, dict]:
        status, body = self.browser().get("/readyz")
        try:
            data = json.loads(body)
        except ValueError:
            raise SmokeError(f"/readyz answered {status} with no JSON: {body[:200]!r}") from None
        missing = HEALTH_CHECKS - set(data.get("checks", {}))
        if missing:
            raise SmokeError(f"/readyz lacks the checks {sorted(missing)}")
        if data.get("version") != VERSION:
            raise SmokeError(f"/readyz says version {data.get('version')!r}, not {VERSION}")
        if (status == 200) != (data.get("ready") is True):
            raise SmokeError(f"/readyz answered {status} with ready={data.get('ready')!r}")
        return status, data

    def ready(self, timeout: float = 60) -> None:
        def answered():
            status, data = self.readyz()
            return status == 200 and not data.get("failing")

        wait_until("/readyz 200", answered, timeout, interval=1)

    def staff_browser(self) -> Browser:
        username, password = self.args.staff.split(":", 1)
        staff = self.browser()
        status, page = staff.get("/admin/login/")
        status, location, _ = staff.submit(
            "/admin/login/", page, "password", username=username, password=password
        )
        if status != 302:
            raise SmokeError(f"the staff sign-in answered {status}")
        return staff

    @staticmethod
    def banner(browser: Browser) -> bool:
        status, page = browser.get("/my/")
        if status != 200:
            raise SmokeError(f"My games answered {status}")
        return BANNER.search(page) is not None

    def kill_the_worker(self, player: Browser) -> None:
        staff = self.staff_browser()
        if self.banner(staff):
            raise SmokeError("staff see the banner while everything runs")
        with step("worker killed: /readyz 503 naming it"):
            subprocess.run(shlex.split(self.args.stop_worker), check=True, capture_output=True)

            def not_ready():
                status, data = self.readyz()
                return status == 503 and "worker" in data.get("failing", [])

            wait_until("/readyz 503 naming the worker", not_ready, 120, interval=1)
        # The banner's verdict is cached for a few seconds (ops.banner.CACHE_SECONDS).
        with step("staff see the banner, players do not"):
            wait_until(
                "staff see the banner while the worker is dead", lambda: self.banner(staff), 30
            )
            if self.banner(player):
                raise SmokeError("a player sees the staff banner")
        with step("worker started again: /readyz 200"):
            subprocess.run(shlex.split(self.args.start_worker), check=True, capture_output=True)
            self.ready(120)
            wait_until(
                "the banner gone after the worker is back", lambda: not self.banner(staff), 30
            )

    def run(self) -> None:
        health = not self.args.without_health
        if health:
            with step("/readyz 200"):
                self.ready()
        with step("sign-up of the first player (verification mail)"):
            anna = self.sign_up("anna")
        with step("sign-up of the second player (verification mail)"):
            bert = self.sign_up("bert")
        with step("create a game, the second player joins"):
            game = self.create_game(anna, bert)
        self.play_two_moves([anna, bert], game)
        if health:
            self.kill_the_worker(anna)
        else:
            with step("staff sign-in (health steps skipped: --without-health)"):
                self.banner(self.staff_browser())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the site through the proxy")
    parser.add_argument("--cafile", required=True, help="the proxy's root certificate")
    parser.add_argument("--mail-dir", type=Path, required=True, help="the SMTP sink's folder")
    parser.add_argument("--staff", required=True, help="username:password of a staff member")
    parser.add_argument("--stop-worker", required=True, help="a command that kills the worker")
    parser.add_argument("--start-worker", required=True, help="a command that starts it again")
    parser.add_argument(
        "--without-health",
        action="store_true",
        help="only part one, for a site without /readyz (never in CI)",
    )
    args = parser.parse_args()
    if urlsplit(args.url).scheme != "https":
        parser.error("--url: the smoke test goes through the TLS proxy (https://...)")
    started = time.monotonic()
    try:
        Smoke(args).run()
    except SmokeError as error:
        print(f"SMOKE TEST FAILED: {error}", file=sys.stderr)
        return 1
    print(f"smoke test passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
