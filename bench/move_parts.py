"""Where the time of a move goes: the move round trip of ``bench/site_load.py`` taken apart.

Usage: .venv/bin/python bench/move_parts.py [--moves N]

In-process (Django's test client, no server) on a throw-away SQLite database with DEBUG
off and ``config.settings_bench``: plays N moves of two-player Tal games from move 10 as
htmx sends them (answered with the new board) and N as an API client sends them (answered
in JSON); after each move the opponent looks at the game, as in ``site_load``. Prints the
median milliseconds per move of the whole request and of its parts, next to the trivial
signed-in view and the one-INSERT POST. A part is timed by wrapping the function that does
it, so a part inside another counts in both; the medians of the parts need not add up.
docs/performance.md ("Where the move round trip goes") reads these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import site_load

# (label, module, function): each is wrapped; calls within one request are added up.
PARTS = [
    ("write (views._once: lock, apply, rows, commit, cache)", "games.views", "_once"),
    ("  of it games.play.act", "games.play", "act"),
    ("answer (views._answer)", "games.views", "_answer"),
    ("  the page's data (views._board_context)", "games.views", "_board_context"),
    ("  the board area's template (views.render)", "games.views", "render"),
    ("    tal.board.build", "tal.board", "build"),
    ("    the valley (tal.valley.render)", "tal.valley", "render"),
]
FRAGMENTS = ("board", "log")  # games.fragments.render(part, ...)
PARTIALS = ("game-header", "history-nav", "chat-list", "chat-form")

spent: dict[str, float] = defaultdict(float)


def _timed(label: str, fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] += time.perf_counter() - start

    return wrapper


def instrument() -> None:
    import importlib

    from template_partials.templatetags import partials

    from games import fragments

    for label, module_name, name in PARTS:
        module = importlib.import_module(module_name)
        setattr(module, name, _timed(label, getattr(module, name)))

    render_fragment = fragments.render

    def fragment(part: str, context: Any, render_part: Any) -> Any:
        return _timed(f"    {part} fragment", render_fragment)(part, context, render_part)

    fragments.render = fragment
    render_partial = partials.RenderPartialNode.render

    def partial(node: Any, context: Any) -> Any:
        if node.partial_name not in PARTIALS:
            return render_partial(node, context)
        return _timed(f"    partial {node.partial_name}", render_partial)(node, context)

    partials.RenderPartialNode.render = partial


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=80, help="moves of each kind")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="move-parts-"))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings_bench",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(40),
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="WARNING",
        BENCH_STATIC_ROOT=str(tmp / "static"),
        DATABASE_URL=f"sqlite:///{tmp / 'bench.sqlite3'}",
    )
    os.environ.pop("REDIS_URL", None)
    try:
        run(args.moves)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(moves: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games import replay

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    users = [User.objects.create_user(f"parts{i}", f"parts{i}@example.invalid") for i in (0, 1)]
    clients = {}
    for user in users:
        clients[user.pk] = Client(HTTP_HOST="127.0.0.1")
        clients[user.pk].force_login(user)
    rng = random.Random(7)
    instrument()

    def play(kind: str) -> tuple[list[float], dict[str, list[float]]]:
        totals: list[float] = []
        parts: dict[str, list[float]] = defaultdict(list)
        while len(totals) < moves:
            game = site_load.tal_game(users, 10, rng)
            by_seat = {s.number: s.user for s in game.seats.all()}
            state = replay.current_state(game)
            plan = site_load.with_tokens(state, site_load.plan_moves(state, 40, rng))
            for seat, action, token in plan:
                if len(totals) == moves:
                    break
                client = clients[by_seat[seat].pk]
                body = {"version": token, "request_id": secrets.token_hex(12)}
                spent.clear()
                start = time.perf_counter()
                if kind == "htmx":
                    body.update(action=json.dumps(action), c="0")
                    response = client.post(
                        f"/g/{game.pk}/act", body, headers={"HX-Request": "true"}
                    )
                else:
                    body.update(action=action)
                    response = client.post(
                        f"/g/{game.pk}/act", json.dumps(body), content_type="application/json"
                    )
                totals.append(time.perf_counter() - start)
                if response.status_code != 200:
                    sys.exit(f"move refused: {response.status_code} {response.content[:200]!r}")
                for label, seconds in spent.items():
                    parts[label].append(seconds)
                # The opponent's look draws their page, as in site_load (not timed).
                clients[by_seat[1 - seat].pk].get(f"/g/{game.pk}/")
        return totals, parts

    htmx, htmx_parts = play("htmx")
    api, api_parts = play("json")
    client = clients[users[0].pk]
    insert_into = {"game": users[0].seats.values_list("game_id", flat=True).first()}
    trivial, insert = [], []
    for _ in range(moves):
        start = time.perf_counter()
        client.get("/bench/trivial")
        trivial.append(time.perf_counter() - start)
        start = time.perf_counter()
        client.post("/bench/insert", insert_into)
        insert.append(time.perf_counter() - start)

    print(f"In-process, SQLite, median ms per request over {moves} moves (Tal, two players):")
    print(f"{'trivial signed-in view':64} {median_ms(trivial):6.2f}")
    print(f"{'one-INSERT POST':64} {median_ms(insert):6.2f}")
    print(f"{'move answered in JSON (no board)':64} {median_ms(api):6.2f}")
    write, act, answer, data, template, build, valley = (label for label, *_ in PARTS)
    for label in (write, act):
        print(f"  {label:62} {median_ms(api_parts[label]):6.2f}")
    print(f"{'move answered with the new board (htmx)':64} {median_ms(htmx):6.2f}")
    fragments = [f"    {p} fragment" for p in FRAGMENTS]
    partials = [f"    partial {p}" for p in PARTIALS]
    for label in (write, act, answer, data, template, *fragments, build, valley, *partials):
        if label in htmx_parts:
            print(f"  {label:62} {median_ms(htmx_parts[label]):6.2f}")


if __name__ == "__main__":
    main()
