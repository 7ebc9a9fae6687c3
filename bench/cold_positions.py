"""A late position with nothing cached: Tal at move 1,000 (or MOVES), rebuilt cold.

Plays a two-player Tal game through ``play.act`` (so snapshots are written as on the
site) on a throw-away SQLite database (or DATABASE_URL), then prints medians of:
``replay.current_state`` and ``replay.state_at`` (middle of the game) with the cache
cleared, the game page and the history page cold, the game page warm, and the
snapshots' count and size. Usage: .venv/bin/python bench/cold_positions.py [MOVES]
"""

import random
import statistics
import sys
import time

import standalone

standalone.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from games import play, registry, replay  # noqa: E402
from games.models import Game, Snapshot  # noqa: E402


def long_game(users, target):
    """A Tal game still running at ``target`` moves (random play; seeds tried in turn)."""
    for seed in range(1, 100):
        game = play.create_game(
            users[0],
            registry.get("tal"),
            title="bench",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        )
        Game.objects.filter(pk=game.pk).update(seed=seed)
        play.join(game.pk, users[1])
        seats = {s.number: s.user for s in game.seats.all()}
        rng = random.Random(seed)
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE or game.move_count >= target:
                break
            state = replay.current_state(game)
            seat = rng.choice(sorted(game.engine.active_seats(state)))
            action = rng.choice(game.engine.legal_actions(state, seat))
            play.act(game.pk, seats[seat], action, None)
        if game.status == Game.Status.ACTIVE:
            return game
    raise SystemExit(f"no game reached {target} moves")


def median_ms(fn, repeat=7, cold=True):
    times = []
    for _ in range(repeat):
        if cold:
            cache.clear()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(f"cold{i}", f"cold{i}@example.com", "x") for i in range(2)]
    game = long_game(users, target)
    middle = game.move_count // 2
    client = Client()
    client.force_login(users[0])
    page = f"/g/{game.pk}/"
    snapshots = Snapshot.objects.filter(game=game)
    size = sum(len(s.state) for s in snapshots)
    figures = [
        ("cold replay.current_state", median_ms(lambda: replay.current_state(game)), "ms"),
        (f"cold replay.state_at({middle})", median_ms(lambda: replay.state_at(game, middle)), "ms"),
        ("full replay (check_replays)", median_ms(lambda: replay.fresh_replay(game), 3), "ms"),
        ("cold game page", median_ms(lambda: client.get(page), 5), "ms"),
        (
            f"cold history ?at={middle}",
            median_ms(lambda: client.get(f"{page}?at={middle}"), 5),
            "ms",
        ),
        ("warm game page", median_ms(lambda: client.get(page), 5, cold=False), "ms"),
    ]
    print(f"tal at move {game.move_count}:")
    for name, value, unit in figures:
        print(f"  {name:30} {value:7.1f} {unit}")
    print(f"  snapshots: {snapshots.count()}, {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
