"""What issue 34 adds to the cheapest pages: the cached game page, the lobby, the profile.

Usage: .venv/bin/python bench/page_hits.py [--requests N]

In-process (Django's test client, no server) on a throw-away SQLite database with DEBUG
off and ``config.settings_bench``, a two-player Tal game at move 10 whose players follow
each other and have finished games together. Prints the median milliseconds per request of:

- the trivial signed-in view (the yardstick);
- the unchanged game page (a whole-page cache hit), with the key parts of issue 34 (who is
  online, blocks, a first game) and without them, as before the issue, each also as the
  page key's query alone (``games.pagecache.page_key``);
- the lobby (the games of the players one follows, the first games) and the profile
  (statistics per title, favourite opponents);
- a finished game's page (a rematch offered to the viewer) against the running game's,
  both reloaded, with the queries each makes (issue 46: at most 1.2 times the cost, and
  no more queries).

Also counts how often the cached game page was drawn anew while time passed and nobody
came or went (it should be once: the online dots are keyed by who is online, not by the
minute).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import site_load


def _not_past_midnight(start: float) -> float:
    """``start``, or whole hours later, so that the 16 minutes from it stay in one day in
    UTC and in the site's time zone: a new day is in the page's key (the page is drawn
    again). Whole hours keep the minute at which the "time left" text changes (an hour
    after the game's last move, each hour), which falls outside the 16 minutes from now."""
    import datetime
    import zoneinfo

    from django.conf import settings

    zones = (datetime.UTC, zoneinfo.ZoneInfo(settings.TIME_ZONE))

    def passes(at: float) -> bool:
        return any(
            datetime.datetime.fromtimestamp(at, zone).date()
            != datetime.datetime.fromtimestamp(at + 17 * 60, zone).date()
            for zone in zones
        )

    while passes(start):
        start += 3600
    return start


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per figure")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="page-hits-"))
    site_load.use_in_process_sqlite(tmp)
    try:
        run(args.requests)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _timed(call, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def run(n: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client, RequestFactory

    from accounts.models import User
    from games import extend, pagecache, play
    from social import relations

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    users = [User.objects.create_user(f"hits{i}", f"hits{i}@example.invalid") for i in (0, 1)]
    rng = random.Random(7)
    for _ in range(3):  # finished games together: the profile has statistics
        ended = site_load.tal_game(users, 10, rng)
        play.resign(ended.pk, users[1])
    game = site_load.tal_game(users, 10, rng)
    relations.follow(users[0], users[1].username)
    relations.follow(users[1], users[0].username)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(users[0])
    Client(HTTP_HOST="127.0.0.1").force_login(users[1])
    url = game.get_absolute_url()
    request = RequestFactory().get(url)
    request.user = users[0]

    def page() -> None:
        assert client.get(url).status_code == 200

    def key() -> None:
        pagecache.page_key(request, game)

    every = extend.key_parts()
    before = [sql for sql in every if not any(word in sql for word in _markers())]
    configs = (("with issue 34's key parts", every), ("without (as before)", before))
    times: dict[str, list[float]] = {}
    rounds = 5  # interleaved: the machine's drift falls on both alike
    for _ in range(rounds):
        for label, parts in configs:
            extend._key_parts[:] = parts
            pagecache._query_for.cache_clear()
            page()  # drawn once, then hits
            times.setdefault(f"game page, cache hit, {label}", []).extend(_timed(page, n // rounds))
            times.setdefault(f"  its key (page_key) alone, {label}", []).extend(
                _timed(key, n // rounds)
            )
    figures = {label: median_ms(values) for label, values in times.items()}
    extend._key_parts[:] = every
    pagecache._query_for.cache_clear()
    trivial = median_ms(_timed(lambda: client.get("/bench/trivial"), n))
    lobby_parts = list(extend._parts["lobby"])
    lobby_times: dict[str, list[float]] = {}
    for _ in range(rounds):
        for label, parts in (
            ("with", lobby_parts),
            ("without", []),
            *((f"with only {p.template}", [p]) for p in lobby_parts),
        ):
            extend._parts["lobby"][:] = parts
            lobby_times.setdefault(label, []).extend(
                _timed(lambda: client.get("/"), n // 3 // rounds)
            )
    extend._parts["lobby"][:] = lobby_parts
    profile = median_ms(_timed(lambda: client.get(f"/u/{users[1].username}/"), n // 3))
    from community import statistics as stats

    opponents = median_ms(_timed(lambda: stats.favourite_opponents(users[1]), n))

    # Each time the page is drawn (not served from the cache), games.views renders it.
    from games import views

    drawn = []
    real_render = views.render

    def render(request, template, *args, **kwargs):
        drawn.append(template)
        return real_render(request, template, *args, **kwargs)

    views.render = render
    import time_machine

    other = Client(HTTP_HOST="127.0.0.1")
    other.force_login(users[1])
    start = _not_past_midnight(time.time())
    dots = []
    with time_machine.travel(start, tick=False) as clock:
        page()
        drawn.clear()
        for minute in range(1, 17):  # the viewer reloads once a minute for 16 minutes
            clock.shift(60)
            if minute == 5:
                other.get("/bench/trivial")  # the other player comes, once, and goes
            html = client.get(url).content.decode()
            header = html.split('class="game-header"', 1)[1].split("</header>", 1)[0]
            dots.append(header.count('class="online-dot"'))
    renders = drawn.count("games/game.html")

    # A finished game's page (issue 46): the last game they ended, with a rematch offered
    # to the viewer, against the running game's, both reloaded (cache hits), interleaved.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from community import rematch

    rematch.answer(ended.pk, users[1], True)
    over_url = ended.get_absolute_url()

    def over() -> None:
        assert client.get(over_url).status_code == 200

    over()
    over_times: dict[str, list[float]] = {"running": [], "finished": []}
    for _ in range(rounds):
        over_times["running"].extend(_timed(page, n // rounds))
        over_times["finished"].extend(_timed(over, n // rounds))
    queries = {}
    for label, load in (("running", page), ("finished", over)):
        with CaptureQueriesContext(connection) as captured:
            load()
        queries[label] = len(captured)
    print(f"In-process, SQLite, median ms per request ({n} requests; lobby, profile {n // 3}):")
    print(f"{'trivial signed-in view':60} {trivial:6.2f}")
    for label, value in figures.items():
        print(f"{label:60} {value:6.2f}")
    for label, values in lobby_times.items():
        print(f"{'lobby, ' + label + ' (issue 34)':60} {median_ms(values):6.2f}")
    running, finished = (median_ms(over_times[k]) for k in ("running", "finished"))
    label = f"game page, cache hit, running ({queries['running']} queries)"
    print(f"{label:60} {running:6.2f}")
    label = f"finished game page, rematch offered ({queries['finished']} queries)"
    ratio = finished / running
    verdict = "met" if ratio <= 1.2 and queries["finished"] <= queries["running"] else "MISSED"
    print(f"{label:60} {finished:6.2f}  {ratio:.2f}x, goal <= 1.2x, no more queries: {verdict}")
    print(f"{'profile (statistics, favourite opponents)':60} {profile:6.2f}")
    print(f"{'  its favourite opponents (the query) alone':60} {opponents:6.2f}")
    print(
        f"game page drawn {renders} time(s) in 16 loads over 16 minutes, in which the other"
        " player came once (minute 5) and was gone five minutes later; online dots per"
        f" minute: {dots}"
    )
    # Drawn once when the other came; when they left, the page with the viewer's dot alone
    # was still in the cache (its key names who is online, not the minute).
    if renders != 1 or dots != [1] * 4 + [2] * 5 + [1] * 7:
        sys.exit("the page key must change when a player comes and goes, not each minute")


def _markers() -> tuple[str, ...]:
    from learn.models import Walkthrough
    from social.models import Block

    return ("accounts_online_since", Block._meta.db_table, Walkthrough._meta.db_table)


if __name__ == "__main__":
    main()
