"""Replay a downloaded game record with the engines and check it.

    python manage.py verify_record game-42.json

Checks the seed against its commitment, the legality of every move, and the
result; exits with an error naming the first thing that does not hold.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.record import RecordError, verify


class Command(BaseCommand):
    help = "Replay a game record (JSON) and check its moves, result and seed commitment."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a record downloaded from a finished game's page")

    def handle(self, *args, **options):
        try:
            with open(options["file"], encoding="utf-8") as handle:
                data = json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from None
        except ValueError as error:
            raise CommandError(f"{options['file']} is not JSON: {error}") from None
        try:
            summary = verify(data)
        except RecordError as error:
            raise CommandError(f"Record refused: {error}") from None
        if options["verbosity"]:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Record verified: {summary['kind']}, {summary['moves']} moves, "
                    f"{summary['status']}, winners {summary['winners']}; "
                    "the seed matches its commitment."
                )
            )
