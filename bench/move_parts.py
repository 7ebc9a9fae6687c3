"""Where the time of a move goes: the move round trip of ``bench/site_load.py`` taken apart.

Usage: .venv/bin/python bench/move_parts.py [--moves N] [--title tal|siam|saba] [--cpu]

In-process (Django's test client, no server) on a throw-away SQLite database with DEBUG
off and ``config.settings_bench``: plays N moves of two-player games (Tal der Könige from
move 10, the default; or King of Siam / King of Saba from move 6) as htmx sends them
(answered with the new board) and N as an API client sends them (answered in JSON), the
two kinds taking turns (so that a shared machine's drift moves both alike); after each
move the opponent looks at the game, as in ``site_load``. Prints the median
milliseconds per move of the whole request and of its parts, next to the trivial signed-in
view and the one-INSERT POST. A part is timed by wrapping the function that does it, so a
part inside another counts in both; the medians of the parts need not add up. Last, the
Django template nodes an htmx answer draws (counted on a few more moves, apart from the
timed ones: counting slows them down). docs/performance.md ("Where the move round trip
goes") reads these figures.
"""

from __future__ import annotations

import argparse
import json
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
    ("    siam.board.build", "siam.board", "build"),
    ("    the take-back offer (games.takeback.last_turn)", "games.takeback", "last_turn"),
]
FRAGMENTS = ("board", "log")  # games.fragments.render(part, ...)
PARTIALS = ("game-header", "history-nav", "chat-list", "chat-form")

spent: dict[str, float] = defaultdict(float)
# What is timed: wall-clock time, or with --cpu the CPU time of this process, which
# other work on a shared machine disturbs far less (but a wait for the disk is not in it).
clock = time.perf_counter


def _timed(label: str, fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] += clock() - start

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
    parser.add_argument("--title", choices=("tal", "siam", "saba"), default="tal")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not the wall clock")
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    tmp = Path(tempfile.mkdtemp(prefix="move-parts-"))
    site_load.use_in_process_sqlite(tmp)
    try:
        run(args.moves, args.title)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def siam_game(users: list[Any], map_id: str, rng: random.Random) -> Any:
    """A two-player King of Siam (or Saba) game played through the site's code for a few
    random actions, past the first cards."""
    from games import play, registry, replay
    from siam.engine import ENGINE as E

    game = play.create_game(
        users[0], registry.get("siam"), title=f"{map_id} at 6", players=2,
        options={"map": map_id}, time_limit_days=30, private=False,
    )  # fmt: skip
    play.join(game.pk, users[1])
    game.refresh_from_db()
    by_seat = {s.number: s.user for s in game.seats.all()}
    state = replay.current_state(game)
    for _ in range(6):
        seat = rng.choice(sorted(E.active_seats(state)))
        action = rng.choice(E.legal_actions(state, seat))
        play.act(game.pk, by_seat[seat], action, None)
        state = E.apply(state, seat, action)
    game.refresh_from_db()
    return game


def siam_moves(state: Any, count: int, rng: random.Random) -> list[tuple[int, dict, str]]:
    """The next ``count`` random (seat, action, token) of a King of Siam game (fewer if it ends)."""
    from games.pages import view_token
    from siam.engine import ENGINE as E

    out = []
    for _ in range(count):
        if E.result(state) is not None:
            break
        seat = rng.choice(sorted(E.active_seats(state)))
        action = rng.choice(E.legal_actions(state, seat))
        out.append((seat, action, view_token(E.view(state, seat))))
        state = E.apply(state, seat, action)
    return out


# Django template nodes drawn by each htmx answer, while "on" (see count_nodes).
nodes: dict[str, Any] = {"on": False, "now": 0, "answers": []}


def count_nodes() -> None:
    """From now on, count the Django template nodes drawn (``nodes``)."""
    from django.template import base

    render_annotated = base.Node.render_annotated

    def counted_render(node: Any, context: Any) -> Any:
        nodes["now"] += 1
        return render_annotated(node, context)

    base.Node.render_annotated = counted_render


def run(moves: int, title: str = "tal") -> None:
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

    def game_and_plan() -> tuple[Any, list[tuple[int, dict, str]]]:
        if title == "tal":
            game = site_load.tal_game(users, 10, rng)
            state = replay.current_state(game)
            return game, site_load.with_tokens(state, site_load.plan_moves(state, 40, rng))
        game = siam_game(users, title, rng)
        return game, siam_moves(replay.current_state(game), 40, rng)

    Played = tuple[list[float], dict[str, list[float]]]

    def play(kinds: tuple[str, ...], moves: int = moves) -> dict[str, Played]:
        """``moves`` moves of each kind, the kinds taking turns move by move: on a
        shared machine whose speed drifts, the figures compared are measured alike."""
        played: dict[str, Played] = {kind: ([], defaultdict(list)) for kind in kinds}
        count = 0
        while count < moves * len(kinds):
            game, plan = game_and_plan()
            by_seat = {s.number: s.user for s in game.seats.all()}
            for seat, action, token in plan:
                if count == moves * len(kinds):
                    break
                kind = kinds[count % len(kinds)]
                count += 1
                totals, parts = played[kind]
                client = clients[by_seat[seat].pk]
                body = {"version": token, "request_id": secrets.token_hex(12)}
                spent.clear()
                nodes["now"] = 0
                start = clock()
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
                totals.append(clock() - start)
                if nodes["on"]:
                    nodes["answers"].append(nodes["now"])
                if response.status_code != 200:
                    sys.exit(f"move refused: {response.status_code} {response.content[:200]!r}")
                for label, seconds in spent.items():
                    parts[label].append(seconds)
                # The opponent's look draws their page, as in site_load (not timed).
                clients[by_seat[1 - seat].pk].get(f"/g/{game.pk}/")
        return played

    played = play(("htmx", "json"))
    htmx, htmx_parts = played["htmx"]
    api, api_parts = played["json"]
    count_nodes()
    nodes["on"] = True
    play(("htmx",), min(moves, 10))
    nodes["on"] = False
    client = clients[users[0].pk]
    insert_into = {"game": users[0].seats.values_list("game_id", flat=True).first()}
    trivial, insert = [], []
    for _ in range(moves):
        start = clock()
        client.get("/bench/trivial")
        trivial.append(clock() - start)
        start = clock()
        client.post("/bench/insert", insert_into)
        insert.append(clock() - start)

    name = {"tal": "Tal", "siam": "King of Siam", "saba": "King of Saba"}[title]
    what = "CPU ms" if clock is time.process_time else "ms"
    print(
        f"In-process, SQLite, median {what} per request over {moves} moves ({name}, two players):"
    )
    print(f"{'trivial signed-in view':64} {median_ms(trivial):6.2f}")
    print(f"{'one-INSERT POST':64} {median_ms(insert):6.2f}")
    print(f"{'move answered in JSON (no board)':64} {median_ms(api):6.2f}")
    write, act, answer, data, template, build, valley, siam_build, takeback = (
        label for label, *_ in PARTS
    )
    for label in (write, act):
        print(f"  {label:62} {median_ms(api_parts[label]):6.2f}")
    print(f"{'move answered with the new board (htmx)':64} {median_ms(htmx):6.2f}")
    ratio = median_ms(api) / median_ms(htmx)
    label = f"moves per second, htmx / JSON (goal >= 0.7: {'met' if ratio >= 0.7 else 'MISSED'})"
    print(f"  {label:62} {ratio:6.2f}")
    fragments = [f"    {p} fragment" for p in FRAGMENTS]
    partials = [f"    partial {p}" for p in PARTIALS]
    shown = (
        write, act, answer, data, template, *fragments, build, valley, siam_build, takeback,
        *partials,
    )  # fmt: skip
    for label in shown:
        if label in htmx_parts:
            print(f"  {label:62} {median_ms(htmx_parts[label]):6.2f}")
    drawn = statistics.median(nodes["answers"])
    print(f"{'Django template nodes drawn per htmx answer (median, count)':64} {drawn:6.0f}")


if __name__ == "__main__":
    main()
