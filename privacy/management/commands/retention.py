from django.core.management.base import BaseCommand

from privacy import retention


class Command(BaseCommand):
    help = (
        "Delete what the privacy notice keeps no longer (unconfirmed accounts, old outbox "
        "rows, expired sessions), as the hourly beat task does."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="count what is due, delete nothing"
        )

    def handle(self, *args, dry_run: bool = False, **options):
        done = retention.apply(dry_run=dry_run)
        verb = "due" if dry_run else "deleted"
        for name, count in done.items():
            self.stdout.write(f"{name}: {count} {verb}")
