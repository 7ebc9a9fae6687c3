"""Computer players as testers: whole games played through the site's web layer.

Every seat is a person's account driven by a bot: it reads the board over HTTP
(Django's test ``Client``, the real URLs, middleware and templates), takes the
page's token like a browser does, and posts the bot's action to the act route.
What a browser would meet is counted: answers of 500 and above, refusals of a
legal move, and finished games that do not replay to the same result.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

import bots
from games import registry, replay
from games.forms import NewGameForm
from games.management.commands.check_replays import Command as CheckReplays
from games.models import Game

# The board templates put the page's token into every action form.
TOKEN = re.compile(r'name="version" value="(v[0-9a-f]+)"')
# A game of either title ends long before this many actions; a guard against a loop.
MAX_ACTIONS = 5000


def titles() -> dict[str, tuple[str, dict]]:
    """What ``--title`` may name: every registered title by its slug, and each map
    of a title with a ``map`` option by the map's id (King of Siam's "saba")."""
    found: dict[str, tuple[str, dict]] = {}
    for kind in registry.kinds():
        found[kind.slug] = (kind.slug, {})
        for spec in kind.engine.options_schema():
            if spec["name"] == "map" and spec["type"] == "choice":
                for value, _label in spec["choices"]:
                    found[value] = (kind.slug, {"map": value})
    return found


class PlaytestError(Exception):
    """The site answered in a way no browser should see."""


@dataclass
class Summary:
    games: int = 0
    finished: int = 0
    moves: int = 0
    requests: int = 0
    server_errors: list[str] = field(default_factory=list)  # "GET /g/1/ -> 500"
    problems: list[str] = field(default_factory=list)  # refusals, stuck games, bad replays
    seconds: float = 0.0
    game_ids: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.server_errors and not self.problems and self.finished == self.games

    def lines(self) -> list[str]:
        return [
            f"games: {self.games} ({self.finished} finished)",
            f"moves: {self.moves}",
            f"requests: {self.requests}",
            f"5xx answers: {len(self.server_errors)}",
            f"problems: {len(self.problems)}",
            f"time: {self.seconds:.1f} s"
            + (f" ({self.moves / self.seconds:.0f} moves/s)" if self.seconds else ""),
        ]


class Browser:
    """One signed-in player's client; every answer is checked for server errors."""

    def __init__(self, user, summary: Summary) -> None:
        host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
        self.client = Client(raise_request_exception=False, HTTP_HOST=host.lstrip("."))
        self.client.force_login(user)
        self.secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
        self.summary = summary

    def _check(self, method: str, url: str, response):
        self.summary.requests += 1
        if response.status_code >= 500:
            self.summary.server_errors.append(f"{method} {url} -> {response.status_code}")
        return response

    def get(self, url: str, **headers):
        return self._check("GET", url, self.client.get(url, secure=self.secure, headers=headers))

    def post(self, url: str, data: dict, **headers):
        response = self.client.post(url, data, secure=self.secure, headers=headers)
        return self._check("POST", url, response)


def new_players(count: int, prefix: str = "playtest") -> list:
    """``count`` fresh accounts (never reused, so runs do not share games)."""
    stamp = uuid.uuid4().hex[:8]
    model = get_user_model()
    return [
        model.objects.create_user(
            username=f"{prefix}-{stamp}-{n}", display_name=f"Tester {n}", notify_turn=False
        )
        for n in range(1, count + 1)
    ]


def _form_data(kind, players: int, options: dict) -> dict:
    """What a browser posts when the creator only picks the player count and options."""
    form = NewGameForm(kind.engine)
    data = {}
    for name, bound in form.fields.items():
        value = form.initial.get(name, bound.initial)
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    data["title"] = "Playtest"
    data["players"] = players
    for name, value in options.items():
        data[f"option_{name}"] = value
    return data


def create_game(browsers: list[Browser], title: str, players: int) -> Game:
    """The first player creates the game from the form, the others join it."""
    slug, options = titles()[title]
    kind = registry.get(slug)
    creator = browsers[0]
    url = reverse("new_game", args=[slug])
    response = creator.post(url, _form_data(kind, players, options))
    if response.status_code != 302:
        raise PlaytestError(f"creating a {title} game answered {response.status_code}")
    game_id = int(response["Location"].rstrip("/").rsplit("/", 1)[-1])
    for browser in browsers[1:players]:
        answer = browser.post(reverse("game_join", args=[game_id]), {})
        if answer.status_code != 302:
            raise PlaytestError(f"joining game {game_id} answered {answer.status_code}")
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE:
        raise PlaytestError(f"game {game_id} did not start when its seats were full")
    return game


def play_game(game: Game, browsers: dict[int, Browser], strength: str, summary: Summary) -> None:
    """Play ``game`` to its end: the seat to move reads its board and posts a bot's action."""
    engine = game.engine
    for browser in browsers.values():
        browser.get(game.get_absolute_url())
    # The text view of the board: every action a form with the page's token, no drawing.
    board_url = reverse("game_board", args=[game.pk]) + "?text=1"
    act_url = reverse("game_act", args=[game.pk]) + "?text=1"
    # The board the last answer showed its mover: still current if they move again.
    last: tuple[int, str] | None = None
    for step in range(MAX_ACTIONS):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = replay.current_state(game)
        active = sorted(engine.active_seats(state))
        if not active:
            summary.problems.append(f"game {game.pk}: running, but nobody is to move")
            return
        number = active[0]
        seat = game.seats.get(number=number)
        browser = browsers[seat.user_id]
        if last is not None and last[0] == number:
            token = last[1]
        else:
            board = browser.get(board_url, HX_Request="true")
            found = TOKEN.search(board.content.decode())
            if board.status_code != 200 or found is None:
                summary.problems.append(f"game {game.pk}: seat {number} sees no action to take")
                return
            token = found.group(1)
        action = bots.choose(
            engine, state, number, strength, salt=f"{game.pk}:{step}", players=game.players
        )
        answer = browser.post(
            act_url,
            {"action": json.dumps(action), "version": token, "request_id": uuid.uuid4().hex},
            HX_Request="true",
        )
        if answer.status_code != 200:
            summary.problems.append(
                f"game {game.pk}: a legal action of seat {number} was refused"
                f" ({answer.status_code}): {action}"
            )
            return
        found = TOKEN.search(answer.content.decode())
        last = (number, found.group(1)) if found else None
        summary.moves += 1
    else:
        summary.problems.append(f"game {game.pk}: no end after {MAX_ACTIONS} actions")
        return
    for browser in browsers.values():
        browser.get(game.get_absolute_url())
    if game.status == Game.Status.FINISHED:
        summary.finished += 1
    problems, _compared = CheckReplays().check_game(game)
    summary.problems.extend(f"game {game.pk}: {problem}" for problem in problems)


def run(games: int, title: str, players: int = 2, strength: str = "random") -> Summary:
    """Play ``games`` games of ``title`` through the web layer; the summary says how it went."""
    if title not in titles():
        raise ValueError(f"unknown title {title!r}: one of {', '.join(titles())}")
    if strength not in bots.STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}: one of {', '.join(bots.STRENGTHS)}")
    summary = Summary()
    started = time.perf_counter()
    for _ in range(games):
        users = new_players(players)
        browsers = [Browser(user, summary) for user in users]
        summary.games += 1
        try:
            game = create_game(browsers, title, players)
        except PlaytestError as error:
            summary.problems.append(str(error))
            continue
        summary.game_ids.append(game.pk)
        by_user = {user.pk: browser for user, browser in zip(users, browsers, strict=True)}
        play_game(game, by_user, strength, summary)
    summary.seconds = time.perf_counter() - started
    return summary
