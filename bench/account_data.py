"""Figures for a player's data: the download (``accounts.export``) and the deletion
(``accounts.erase``) of a player with many finished and some running games.

Runs on a throw-away SQLite database (or DATABASE_URL if set).
Usage: .venv/bin/python bench/account_data.py [finished games] [running games]
"""

import sys
import time

import standalone

standalone.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from accounts import erase, export  # noqa: E402
from accounts.models import User  # noqa: E402
from games import play, registry  # noqa: E402


def new_game(player, opponent, n):
    game = play.create_game(
        player,
        registry.get("siam"),
        title=f"bench {n}",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    play.join(game.pk, opponent)
    play.post_chat(game.pk, player, f"line {n}")
    return game


def main(finished: int, running: int) -> None:
    call_command("migrate", verbosity=0)
    player = User.objects.create_user("bench_player", "bench@example.com", "x")
    opponents = [User.objects.create_user(f"rival{i}", f"r{i}@example.com", "x") for i in range(4)]
    start = time.perf_counter()
    for n in range(finished):
        game = new_game(player, opponents[n % 4], n)
        play.resign(game.pk, opponents[n % 4])
    for n in range(running):
        new_game(player, opponents[n % 4], finished + n)
    print(
        f"{finished} finished and {running} running games set up in "
        f"{time.perf_counter() - start:.1f} s"
    )

    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        size = len(export.archive(player))
        elapsed = time.perf_counter() - start
    print(f"download: {elapsed * 1000:.0f} ms, {len(queries)} queries, {size / 1024:.0f} KiB zip")

    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        erase.delete_account(player)
        elapsed = time.perf_counter() - start
    print(f"deletion: {elapsed * 1000:.0f} ms, {len(queries)} queries")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]) if len(sys.argv) > 2 else (100, 10))
