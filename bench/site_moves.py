"""Figures for the game host: a move end to end, a poll, cold and warm replays.

"cold state" is the current state with nothing cached (from the latest snapshot);
"cold history" a past position in the middle of the game, likewise; "full replay"
the whole log from the seed (what check_replays does).

Runs on a throw-away SQLite database (or DATABASE_URL if set) and prints
milliseconds per operation. Usage: .venv/bin/python bench/site_moves.py
"""

import random
import time

import standalone

standalone.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from games import play, registry, replay  # noqa: E402


def timed(fn, *args, repeat=1):
    start = time.perf_counter()
    for _ in range(repeat):
        fn(*args)
    return (time.perf_counter() - start) / repeat * 1000


def page_figures(client, game) -> str:
    """The unchanged page again and again (what a reload costs), and what goes over the wire."""
    url = f"/g/{game.pk}/"
    client.get(url)
    warm = sorted(timed(client.get, url) for _ in range(15))[7]
    body = client.get(url).content
    packed = client.get(url, headers={"Accept-Encoding": "gzip"}).content
    # the answer to a poll after a move, from a page whose chat is up to date
    refresh = client.get(
        f"/g/{game.pk}/poll?v=0&c={game.chat_count}", headers={"HX-Request": "true"}
    ).content
    return (
        f"unchanged page median {warm:.1f} ms; page {len(body) / 1024:.1f} KB "
        f"({len(packed) / 1024:.1f} KB sent gzip); refresh after a move "
        f"{len(refresh) / 1024:.1f} KB"
    )


def _cold(fn, *args):
    cache.clear()
    return fn(*args)


def main():
    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(f"bench{i}", f"b{i}@example.com", "x") for i in range(2)]
    for kind in ("siam", "tal"):
        game = play.create_game(
            users[0],
            registry.get(kind),
            title="bench",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        )
        play.join(game.pk, users[1])
        seats = {s.number: s.user for s in game.seats.all()}
        rng = random.Random(1)
        act_ms = []
        while True:
            game.refresh_from_db()
            if game.status != "active":
                break
            state = replay.current_state(game)
            seat = min(game.engine.active_seats(state))
            action = rng.choice(game.engine.legal_actions(state, seat))
            act_ms.append(timed(play.act, game.pk, seats[seat], action, None))
        game.refresh_from_db()
        cache.clear()
        cold = timed(replay.fresh_replay, game)
        cold_state = timed(_cold, replay.current_state, game, repeat=5)
        cold_history = timed(_cold, replay.state_at, game, game.move_count // 2, repeat=5)
        replay.current_state(game)
        warm = timed(replay.current_state, game, repeat=20)
        client = Client()
        client.force_login(seats[0])
        url = f"/g/{game.pk}/poll?v={game.version}&c={game.chat_count}"
        poll = timed(client.get, url, repeat=50)
        page = timed(client.get, f"/g/{game.pk}/", repeat=5)
        act_ms.sort()
        print(
            f"{kind}: {game.move_count} moves; act median {act_ms[len(act_ms) // 2]:.1f} ms, "
            f"p95 {act_ms[int(len(act_ms) * 0.95)]:.1f} ms; full replay {cold:.0f} ms; "
            f"cold state {cold_state:.1f} ms; cold history {cold_history:.1f} ms; "
            f"cached state {warm:.2f} ms; poll (no change) {poll:.2f} ms; "
            f"game page {page:.0f} ms"
        )
        print(f"{kind}: " + page_figures(client, game))


if __name__ == "__main__":
    main()
