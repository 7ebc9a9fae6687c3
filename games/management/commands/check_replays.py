"""Replay every running game with the current engines; list the ones that break.

Run before every deploy: a rules change that no longer accepts an old log
shows up here instead of on a player's screen. The replay goes from the seed
through the whole log, never from a snapshot, and compares every stored
snapshot with the state it reaches there: a snapshot that differs (or can no
longer be read) is listed too, and ``--fix`` writes it anew from the replay.
"""

from django.core.management.base import BaseCommand, CommandError

from games import replay, statecodec
from games.models import Game, Snapshot


class Command(BaseCommand):
    help = (
        "Replay every running game from its seed and move log, compare its snapshots, "
        "and report failures."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Also replay finished games.")
        parser.add_argument(
            "--fix",
            action="store_true",
            help="Rewrite snapshots that differ from the replay (and drop those past the end).",
        )

    def handle(self, *args, **options):
        statuses = [Game.Status.ACTIVE]
        if options["all"]:
            statuses.append(Game.Status.FINISHED)
        broken = []
        checked = snapshots = 0
        for game in Game.objects.filter(status__in=statuses).order_by("pk"):
            checked += 1
            problems, compared = self.check_game(game, fix=options["fix"])
            snapshots += compared
            if problems:
                broken.append(game)
                for problem in problems:
                    self.stdout.write(
                        f"game {game.pk} ({game.kind} v{game.rules_version}): {problem}"
                    )
        self.stdout.write(
            f"{checked} games replayed, {len(broken)} broken ({snapshots} snapshots compared)"
        )
        if broken:
            raise CommandError(f"{len(broken)} games no longer replay or have bad snapshots")

    def check_game(self, game, fix: bool = False) -> tuple[list[str], int]:
        """What is wrong with ``game`` (empty: nothing), and how many snapshots were compared."""
        try:
            engine = game.engine
        except KeyError:
            return ["no engine registered for this kind and rules version"], 0
        stored = {s.move_count: s for s in Snapshot.objects.filter(game=game)}
        problems = []
        state = replay.initial_state(game)
        count = compared = 0
        try:
            moves = game.moves.filter(undone=False).order_by("number")
            for number, seat, action in moves.values_list("number", "seat", "action"):
                state = engine.apply(state, seat, action)
                count += 1
                snapshot = stored.pop(count, None)
                if snapshot is not None:
                    compared += 1
                    problem = _compare(snapshot, number, state)
                    if problem:
                        problems.append(f"snapshot at move {count} {problem}")
                        if fix:
                            replay.save_snapshot(game, count, number, state)
        except Exception as error:  # any failure is what we are looking for
            return [f"replay failed: {error}", *problems], compared
        for left in sorted(stored):
            problems.append(f"snapshot at move {left} is past the end of the log ({count} moves)")
            if fix:
                stored[left].delete()
        rows = game.moves.count()
        if rows != game.move_count + game.undo_count:
            # play.act numbers a new move by these counters.
            problems.append(
                f"the log has {rows} moves, the game counts {game.move_count + game.undo_count}"
            )
        result = engine.result(state)
        if game.status == Game.Status.ACTIVE and result is not None:
            problems.append("the log now ends the game, but the game is running")
        if (
            game.status == Game.Status.FINISHED
            and game.result
            and not game.seats.filter(resigned=True).exists()
            and "timed_out" not in (game.result.get("details") or {})
            and result != game.result
        ):
            problems.append("the replayed result differs from the stored one")
        return problems, compared


def _compare(snapshot: Snapshot, number: int, state) -> str:
    if snapshot.format != statecodec.FORMAT:
        return f"is in an old format ({snapshot.format}) and is not used"
    if snapshot.last_number != number:
        return f"ends with move #{snapshot.last_number}, the log with #{number}"
    try:
        stored = statecodec.raw(bytes(snapshot.state))
        expected = statecodec.encode(state)
    except statecodec.SnapshotError as error:
        return f"cannot be read: {error}"
    if stored != expected:
        return "differs from the replay"
    return ""
