"""What happened to the outbox, for whoever counts it (the metrics of ``ops``)."""

from django.dispatch import Signal

# A delivery attempt of one claimed row ended. kwargs: channel, outcome ("sent",
# "failed" (retried later), "skipped", "postponed", "interrupted"), retry (the row had
# failed before). Sent after the row is updated, outside any transaction of its own.
delivered = Signal()
