"""Figures for the deadline sweep with banks: an idle pass (nothing due) over a few
running games and over many, and a pass that times a hundred of them out.

Half the games run on banks (a third of those with weekends off), half on a time per
move; a few players are on vacation. The sweep's cost must stay flat however many games
run: a deadline is the moment the first bank empties, computed when a turn changes hands,
so the sweep asks one indexed question (``games.clock.deadlines``) and never walks the
banks.

Runs on a throw-away SQLite database (or DATABASE_URL if set, which is the production
case: PostgreSQL).
Usage: .venv/bin/python bench/sweep_deadlines.py [small] [large]   (default 1000 100000)
"""

import sys
import time
from datetime import timedelta

import standalone

standalone.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games import deadlines, play, registry  # noqa: E402
from games.clock import Pace, named  # noqa: E402
from games.models import Game, Seat  # noqa: E402

BATCH = 5000


def players(count: int) -> list[User]:
    """``count`` players, made before any game: the same players at every size."""
    users = [User(username=f"sweep{i}", email=f"s{i}@example.com") for i in range(count)]
    users = User.objects.bulk_create(users, batch_size=BATCH)
    # A few players away: the sweep stops their games' clocks on the first pass.
    User.objects.filter(pk__in=[u.pk for u in users[:5]]).update(
        vacation_until=timezone.localdate() + timedelta(days=5)
    )
    return users


def add_games(users: list[User], start: int, stop: int) -> None:
    """Running games ``start``..``stop`` in bulk, as play leaves them after a turn."""
    now = timezone.now()
    live = named("live").pace
    for first in range(start, stop, BATCH):
        numbers = range(first, min(first + BATCH, stop))
        games = []
        for n in numbers:
            banked = n % 2 == 0
            games.append(
                Game(
                    kind="siam",
                    title=f"bench {n}",
                    players=2,
                    rules_version=registry.get("siam").engine.rules_version,
                    status=Game.Status.ACTIVE,
                    started_at=now,
                    last_move_at=now,
                    deadline=now + timedelta(minutes=60 + n % 4000),
                    bank_start=live.start if banked else None,
                    bank_increment=live.increment if banked else None,
                    bank_cap=live.cap if banked else None,
                    weekends_off=banked and n % 3 == 0,
                )
            )
        games = Game.objects.bulk_create(games)
        seats = []
        for n, game in zip(numbers, games, strict=True):
            # Nobody on vacation moves in the bulk games: the first pass is the same
            # work at every size (the games ``vacationers`` makes through play).
            a, b = users[5 + n % (len(users) - 5)], users[5 + (n + 1) % (len(users) - 5)]
            bank = live.start if game.bank_start else None
            seats += [
                Seat(game=game, user=a, person=a, number=0, to_move=True, to_move_since=now,
                     bank=bank, bank_since=now if bank else None),
                Seat(game=game, user=b, person=b, number=1, bank=bank),
            ]  # fmt: skip
        Seat.objects.bulk_create(seats)


def vacationers(users: list[User], count: int) -> None:
    """Games whose player to move is away, made through play (their clocks stop)."""
    pace = Pace(4 * timedelta(hours=1), timedelta(hours=1), 8 * timedelta(hours=1))
    for n in range(count):
        game = play.create_game(
            users[n % 5], registry.get("siam"), title=f"away {n}", players=2, options={},
            time_limit_days=3, private=False, pace=pace if n % 2 else None,
        )  # fmt: skip
        play.join(game.pk, users[5 + n])


def idle_pass() -> float:
    """The best of ten passes with nothing due, in milliseconds (the best, as a shared
    machine's other work only ever adds to a pass)."""
    times = []
    for _ in range(10):
        start = time.perf_counter()
        counts = deadlines.sweep()
        times.append((time.perf_counter() - start) * 1000)
        assert counts["timed_out"] == 0, counts
    return min(times)


def timeout_pass(count: int) -> float:
    """Time out ``count`` games (half on banks); milliseconds per game."""
    due = list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)[:count]
    )
    past = timezone.now() - timedelta(minutes=1)
    Game.objects.filter(pk__in=due).update(deadline=past)
    Seat.objects.filter(game_id__in=due, bank__isnull=False, to_move=True).update(
        bank=timedelta(0), bank_since=past
    )
    start = time.perf_counter()
    counts = deadlines.sweep()
    elapsed = (time.perf_counter() - start) * 1000
    assert counts["timed_out"] == len(due), counts
    return elapsed / len(due)


def main(small: int, large: int) -> None:
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    users = players(max(200, large // 4))  # about eight running games a player
    start = time.perf_counter()
    add_games(users, 0, small)
    vacationers(users, 20)
    first = deadlines.sweep()
    print(
        f"{small} running games set up in {time.perf_counter() - start:.1f} s; first pass {first}"
    )
    small_ms = idle_pass()
    print(f"idle pass over {small} games: {small_ms:.1f} ms")

    start = time.perf_counter()
    add_games(users, small, large)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"{large} running games set up in {time.perf_counter() - start:.1f} s")
    large_ms = idle_pass()
    print(f"idle pass over {large} games: {large_ms:.1f} ms")
    print(f"ratio {large} / {small} games: {large_ms / small_ms:.2f} (flat: near 1)")
    print(f"timeout pass: {timeout_pass(100):.1f} ms per timed-out game (100 of {large})")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*(args + [1000, 100000][len(args) :]))
