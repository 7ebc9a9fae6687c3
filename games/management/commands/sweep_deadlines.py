"""Apply the timeout policy of every running game whose deadline has passed.

Celery beat runs the same sweep every few minutes; this command is for cron
on a site without beat, and for operators. ``--dry-run`` only lists the
overdue games.
"""

from django.core.management.base import BaseCommand

from games import deadlines
from games.models import Game


class Command(BaseCommand):
    help = (
        "End agreed pauses whose date has come, pause/resume vacation clocks and time out"
        " running games past their deadline."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="List the overdue games, change nothing."
        )

    def handle(self, *args, **options):
        if options["dry_run"]:
            overdue = deadlines.overdue()
            policies = dict(
                Game.objects.filter(pk__in=[pk for pk, _ in overdue]).values_list(
                    "pk", "timeout_policy"
                )
            )
            for pk, deadline in overdue:
                self.stdout.write(f"game {pk}: deadline {deadline:%Y-%m-%d %H:%M} ({policies[pk]})")
            self.stdout.write(f"{len(overdue)} games overdue (dry run, nothing changed)")
            return
        counts = deadlines.sweep()
        if options["verbosity"] >= 1:
            summary = ", ".join(f"{n} {what}" for what, n in counts.items())
            style = self.style.ERROR if counts["failed"] else self.style.SUCCESS
            self.stdout.write(style(summary))
