"""Replay every running game with the current engines; list the ones that break.

Run before every deploy: a rules change that no longer accepts an old log
shows up here instead of on a player's screen.
"""

from django.core.management.base import BaseCommand, CommandError

from games import replay
from games.models import Game


class Command(BaseCommand):
    help = "Replay every running game from its seed and move log and report failures."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Also replay finished games.")

    def handle(self, *args, **options):
        statuses = [Game.Status.ACTIVE]
        if options["all"]:
            statuses.append(Game.Status.FINISHED)
        broken = []
        checked = 0
        for game in Game.objects.filter(status__in=statuses).order_by("pk"):
            checked += 1
            problem = self.check_game(game)
            if problem:
                broken.append(game)
                self.stdout.write(f"game {game.pk} ({game.kind} v{game.rules_version}): {problem}")
        self.stdout.write(f"{checked} games replayed, {len(broken)} broken")
        if broken:
            raise CommandError(f"{len(broken)} games no longer replay")

    def check_game(self, game) -> str:
        try:
            engine = game.engine
        except KeyError:
            return "no engine registered for this kind and rules version"
        try:
            state = replay.fresh_replay(game)
        except Exception as error:  # any failure is what we are looking for
            return f"replay failed: {error}"
        result = engine.result(state)
        if game.status == Game.Status.ACTIVE and result is not None:
            return "the log now ends the game, but the game is running"
        if (
            game.status == Game.Status.FINISHED
            and game.result
            and not game.seats.filter(resigned=True).exists()
            and "timed_out" not in (game.result.get("details") or {})
            and result != game.result
        ):
            return "the replayed result differs from the stored one"
        return ""
