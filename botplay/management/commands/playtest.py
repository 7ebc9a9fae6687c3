"""Play whole games through the web layer with computer players in every seat.

    manage.py playtest --games 5 --title saba --players 3 --strength greedy

Each seat is a new account driven by a bot over HTTP (the real routes, the
page's token, like a browser). Fails if any answer was a server error, a legal
move was refused, a game did not end, or a finished game does not replay.
The accounts and games stay in the database (look at them on the site).
"""

from django.core.management.base import BaseCommand, CommandError

import bots
from botplay import playtest


class Command(BaseCommand):
    help = "Play N games of a title through the web layer with bots in every seat; report 5xx."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1, help="How many games to play.")
        parser.add_argument("--title", choices=sorted(playtest.titles()), required=True)
        parser.add_argument("--players", type=int, default=2, help="Seats per game.")
        parser.add_argument(
            "--strength", choices=bots.STRENGTHS, default="random", help="How the seats play."
        )

    def handle(self, *args, **options):
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        summary = playtest.run(
            options["games"], options["title"], options["players"], options["strength"]
        )
        if options["verbosity"] >= 1:
            for line in summary.lines():
                self.stdout.write(line)
            for line in summary.server_errors + summary.problems:
                self.stdout.write(self.style.ERROR(line))
        if not summary.ok:
            raise CommandError(
                f"{len(summary.server_errors)} server errors, {len(summary.problems)} problems"
            )
        if options["verbosity"] >= 1:
            self.stdout.write(self.style.SUCCESS("every game ended and replays"))
