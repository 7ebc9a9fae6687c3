"""Figures for the deadline sweep: an idle pass over many running games, and a pass
that times many of them out.

Runs on a throw-away SQLite database (or DATABASE_URL if set).
Usage: .venv/bin/python bench/sweep_deadlines.py [games]
"""

import sys
import time
from datetime import timedelta

import standalone

standalone.setup()

from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games import deadlines, play, registry  # noqa: E402
from games.models import Game  # noqa: E402


def main(count: int) -> None:
    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(f"sweep{i}", f"s{i}@example.com", "x") for i in range(4)]
    start = time.perf_counter()
    for n in range(count):
        a, b = users[n % 4], users[(n + 1) % 4]
        game = play.create_game(
            a,
            registry.get("siam"),
            title=f"bench {n}",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        )
        play.join(game.pk, b)
    print(f"{count} running games set up in {time.perf_counter() - start:.1f} s")
    # A quarter of the players on vacation: their games' clocks stop.
    users[0].vacation_until = timezone.localdate() + timedelta(days=5)
    users[0].save()

    for label in ("first pass (pauses clocks)", "idle pass (nothing due)"):
        start = time.perf_counter()
        counts = deadlines.sweep()
        print(f"{label}: {(time.perf_counter() - start) * 1000:.0f} ms {counts}")

    Game.objects.filter(deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    start = time.perf_counter()
    counts = deadlines.sweep()
    elapsed = time.perf_counter() - start
    per_game = elapsed / max(counts["timed_out"], 1) * 1000
    print(f"timeout pass: {elapsed * 1000:.0f} ms, {per_game:.1f} ms per timed-out game {counts}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
