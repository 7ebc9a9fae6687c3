"""The archive's search at 100,000 finished games and 1,000,000 moves against 100 games
(issue 43): each search's page, the time per request and the number of queries.

Usage: .venv/bin/python bench/archive_search.py [--requests N] [--games G] [--moves M]

Builds a throw-away database as ``bench/site_load.py`` does (an SQLite file; with
DATABASE_URL set, a PostgreSQL database named after it with ``_bench`` appended, created
and dropped here), fills it with ``manage.py bench_fill`` (bulk inserts, COPY on
PostgreSQL), and asks each search of the archive through Django's test client in this
process (the view, its queries and its template, no server): first with 100 games, then
with ``--games`` and ``--moves``. Each figure is the median time of ``--requests``
requests, interleaved with those of the other searches so that the machine's drift
moves them alike. A search passes when its page (median time per request) and its
queries (median time in the database) cost at most ``GOAL`` times what they cost at 100
games (the noise of a shared machine) and it asks as many queries. The fastest request
is printed too; on a busy machine it says little.

"A deep page" is the page after the 50,000th game: a keyset page starts there without
reading the games before it, so it costs what the first page does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import site_load  # noqa: I001 (beside this script: its throw-away database)

GOAL = 1.5
# name -> the archive's query string ({deep}: the cursor of a game far down the list)
SEARCHES = {
    "newest": "",
    "oldest": "sort=oldest",
    "longest": "sort=longest",
    "shortest": "sort=shortest",
    "deep page": "after={deep}",
    "title": "title=tal",
    "map (no game)": "map=siam.saba",
    "date range": "since={since}&until={until}",
    "moves": "moves_min=3&moves_max=20",
    "rated": "rated=yes",
    "player": "player=benchpool0",
    "player, oldest": "player=benchpool0&sort=oldest",
    "player, longest": "player=benchpool0&sort=longest",
    "player won": "player=benchpool0&result=won",
    "player lost": "player=benchpool0&result=lost",
    "pair": "player=benchpool0&against=benchpool1",
    "pair, title, rated": "player=benchpool0&against=benchpool1&title=tal&rated=yes",
}


def measure(client, queries: dict[str, str], requests: int) -> dict[str, tuple]:
    """name -> (median seconds per request, the fastest, the median seconds in the
    database, queries of one request)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    pages: dict[str, list[float]] = {name: [] for name in queries}
    database: dict[str, list[float]] = {name: [] for name in queries}
    counts = {}
    for round_ in range(requests + 1):  # the first round warms up (connection, templates)
        for name, query in queries.items():
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get(f"/archive/?{query}")
                took = time.perf_counter() - started
            if response.status_code != 200:
                raise SystemExit(f"{name}: {response.status_code}")
            counts[name] = len(captured)
            if round_:
                pages[name].append(took)
                database[name].append(sum(float(q["time"]) for q in captured))
    return {
        name: (
            statistics.median(pages[name]),
            min(pages[name]),
            statistics.median(database[name]),
            counts[name],
        )
        for name in queries
    }


def one_winner() -> None:
    """Each game won by one seat, the first or the second by pairs of games (the sample game
    bench_fill copies ends in a tie): "won" and "lost" both find games."""
    from django.db import connection

    from games.models import Game

    table = connection.ops.quote_name(Game._meta.db_table)
    if connection.vendor == "postgresql":
        winners = "jsonb_set(result::jsonb, '{winners}', to_jsonb(ARRAY[(id / 2) % 2]))"
    else:
        winners = "json_set(result, '$.winners', json_array((id / 2) % 2))"
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET result = {winners}")
        if connection.vendor == "postgresql":
            cursor.execute(f"VACUUM (ANALYZE) {table}")


def searches() -> dict[str, str]:
    """The searches with the dates and the deep cursor of the data in the database."""
    from games.models import Game
    from games.paging import Order

    games = Game.objects.filter(finished_at__isnull=False).order_by("-finished_at", "-id")
    deep = games[min(50_000, games.count() // 2)]
    newest = games.first().finished_at
    dates = {"since": (newest.date().replace(day=1)).isoformat(), "until": newest.date()}
    cursor = Order("finished_at", descending=True, is_time=True).cursor(deep)
    return {name: query.format(deep=cursor, **dates) for name, query in SEARCHES.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=25, help="requests per search and size")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=1_000_000)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="archive-search-"))
    target = site_load.prepare(tmp)
    os.environ.update(target.env)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("REDIS_URL", None)  # the archive reads the database only
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        print(f"Archive search on {target.description}, in process, {args.requests} "
              "requests per search and size (median).")  # fmt: skip
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        quiet = open(os.devnull, "w")  # noqa: SIM115 (for the whole run)
        # Two players in the first 100 games: each search lists a full page at both sizes
        # (a page of 2 games would be cheaper to draw than one of 30, not faster to find).
        call_command("bench_fill", games=100, moves=1000, users=2, stdout=quiet)
        one_winner()
        client = Client()
        small = measure(client, searches(), args.requests)
        print(f"adding {args.games - 100:,} finished games and {args.moves - 1000:,} moves ...")
        started = time.perf_counter()
        call_command(
            "bench_fill",
            games=args.games - 100,
            moves=args.moves - 1000,
            users=200,
            yes=True,
            stdout=quiet,
        )
        one_winner()
        print(f"  filled in {time.perf_counter() - started:.0f} s")
        big = measure(client, searches(), args.requests)
        report(small, big, args.games)
    finally:
        from django.db import connections

        connections.close_all()
        target.close()
        shutil.rmtree(tmp, ignore_errors=True)


def report(small: dict, big: dict, games: int) -> None:
    big_label = f"{games:,} games"
    print(f"\n{'search':20} {'100 games':>18} {big_label:>18} {'ratio':>11}  queries")
    print(f"{'':20} {'page  best    db':>18} {'page  best    db':>18} {'page    db':>11}")
    failed = []
    for name in SEARCHES:
        (page_s, best_s, db_s, q_small), (page_b, best_b, db_b, q_big) = small[name], big[name]
        ratio, db_ratio = page_b / page_s, db_b / db_s
        ok = ratio <= GOAL and db_ratio <= GOAL and q_big == q_small
        if not ok:
            failed.append(name)
        print(f"{name:20} {page_s * 1e3:5.0f} {best_s * 1e3:5.0f} {db_s * 1e3:5.1f}ms "
              f"{page_b * 1e3:5.0f} {best_b * 1e3:5.0f} {db_b * 1e3:5.1f}ms "
              f"{ratio:5.2f} {db_ratio:5.2f}  {q_small} -> {q_big}  "
              f"{'ok' if ok else 'OVER'}")  # fmt: skip
    print(f"\npage: median ms per request; best: the fastest; db: median ms in its queries. "
          f"Goal: page and db at most {GOAL}x their time at 100 games, the same queries: "
          f"{'met' if not failed else 'NOT met by ' + ', '.join(failed)}")  # fmt: skip
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
