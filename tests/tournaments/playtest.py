"""A whole tournament through the web layer: accounts driven by bots enter it from the
lobby, its creator starts it, and every game of every round is played over HTTP
(``botplay.playtest``: the real routes and the page's token) until its final table.

Rounds start by themselves: the request that ends a round's last game queues the
tournament's next step (eager in the tests, as in ``make run``)."""

from __future__ import annotations

import json
import re
import uuid

from allauth.account.models import EmailAddress
from django.urls import reverse

import bots
from botplay import playtest
from games import registry, replay
from games.models import Game
from tournaments.models import Table, Tournament

MAX_ROUNDS = 40


def create(browser, kind: str, **fields) -> Tournament:
    """The creator fills the form of a new tournament (the defaults, and ``fields``)."""
    data = {
        "name": fields.pop("name", "Playtest cup"),
        "table_size": 2,
        "format": "swiss",
        "rounds": 3,
        "group_size": 4,
        "every_seating": "on",
        "finals": 0,
        "time_limit_days": 3,
        "timeout_policy": "lose",
        "withdrawal": "forfeit",
        "min_entrants": 2,
        "max_entrants": 32,
        "signup_days": 7,
    }
    for spec in registry.get(kind).engine.options_schema():
        default = spec.get("default")
        if default not in (None, False):
            data[f"option_{spec['name']}"] = "on" if default is True else default
    data.update(fields)
    if not data.get("every_seating"):
        data.pop("every_seating")
    response = browser.post(reverse("new_tournament", args=[kind]), data)
    if response.status_code != 302:
        errors = re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', response.content.decode())
        raise playtest.PlaytestError(
            f"creating a tournament answered {response.status_code}: {errors}"
        )
    tournament_id = int(re.search(r"/tournaments/(\d+)/", response["Location"]).group(1))
    return Tournament.objects.get(pk=tournament_id)


def players(count: int) -> list:
    users = playtest.new_players(count, prefix="entrant")
    for user in users:  # only verified players may create tournaments
        user.email = f"{user.username}@example.com"
        user.quiet_from = user.quiet_until = "00:00"  # mail at any hour
        user.save(update_fields=["email", "quiet_from", "quiet_until"])
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return users


def enter_from_the_lobby(browsers, tournament: Tournament) -> None:
    for browser in browsers:
        lobby = browser.get(reverse("home")).content.decode()
        if tournament.get_absolute_url() not in lobby:
            raise playtest.PlaytestError("the lobby does not list the open tournament")
        answer = browser.post(reverse("tournament_enter", args=[tournament.pk]), {})
        if answer.status_code != 302:
            raise playtest.PlaytestError(f"entering answered {answer.status_code}")


def play_game(game: Game, browsers: dict, strength: str, summary: playtest.Summary) -> None:
    """``botplay.playtest.play_game`` without its visits to the whole game page (the
    board and the move are the same routes): a tournament has many games to play."""
    engine = game.engine
    board_url = reverse("game_board", args=[game.pk]) + "?text=1"
    act_url = reverse("game_act", args=[game.pk]) + "?text=1"
    last = None
    for step in range(playtest.MAX_ACTIONS):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = replay.current_state(game)
        number = min(engine.active_seats(state))
        browser = browsers[game.seats.get(number=number).user_id]
        if last is not None and last[0] == number:
            token = last[1]
        else:
            board = browser.get(board_url, HX_Request="true")
            found = playtest.TOKEN.search(board.content.decode())
            if found is None:
                summary.problems.append(f"game {game.pk}: seat {number} sees no action")
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
            summary.problems.append(f"game {game.pk}: a legal action was refused: {action}")
            return
        found = playtest.TOKEN.search(answer.content.decode())
        last = (number, found.group(1)) if found else None
        summary.moves += 1
    if game.status == Game.Status.FINISHED:
        summary.finished += 1


def play_out(
    tournament: Tournament, by_user: dict, summary: playtest.Summary, strength: str = "random"
) -> list[str]:
    """Play every game of every round until the tournament is over; the standings page
    as each round ended (for the test to watch them change)."""
    pages = []
    for _ in range(MAX_ROUNDS):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        games = Game.objects.filter(
            tournament_table__tournament=tournament, status=Game.Status.ACTIVE
        ).order_by("pk")
        if not games:
            raise playtest.PlaytestError("a running tournament has no running game")
        for game in games:
            summary.games += 1
            summary.game_ids.append(game.pk)
            play_game(game, by_user, strength, summary)
        viewer = next(iter(by_user.values()))
        pages.append(viewer.get(tournament.get_absolute_url()).content.decode())
    tournament.refresh_from_db()
    return pages


def run(kind: str, entrants: int, strength: str = "random", **fields):
    """Create, enter, start and play a tournament through the web; (tournament, summary,
    standings pages after each round)."""
    summary = playtest.Summary()
    users = players(entrants)
    browsers = [playtest.Browser(user, summary) for user in users]
    tournament = create(browsers[0], kind, **fields)
    enter_from_the_lobby(browsers, tournament)
    started = browsers[0].post(reverse("tournament_start", args=[tournament.pk]), {})
    if started.status_code != 302:
        raise playtest.PlaytestError(f"starting answered {started.status_code}")
    by_user = {user.pk: browser for user, browser in zip(users, browsers, strict=True)}
    pages = play_out(tournament, by_user, summary, strength)
    return tournament, summary, pages


def tables(tournament: Tournament) -> list[Table]:
    return list(Table.objects.filter(tournament=tournament).select_related("round", "game"))
