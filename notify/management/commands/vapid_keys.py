"""Make a VAPID key pair for web push (RFC 8292) and print it as environment variables.

Put both lines in the site's environment (and the workers'), with VAPID_SUBJECT set to
a mailto: or https: address the push services may contact. A new pair voids every
push subscription made with the old one: devices must be added again.
"""

from django.core.management.base import BaseCommand

from notify import push


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push, as VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY."

    def handle(self, *args, **options):
        public, private = push.new_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        if options["verbosity"] > 1:
            self.stderr.write("Keep the private key secret; a new pair voids old subscriptions.")
