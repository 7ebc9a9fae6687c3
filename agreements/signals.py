"""What the agreements app tells the apps above it (notify mails the players asked)."""

from django.dispatch import Signal

# A player asked the others to agree to something (a pause, an early resume, taking back
# their last turn), and somebody must answer. kwargs: game, request (the Request row).
asked = Signal()
