from django.db import models


class Heartbeat(models.Model):
    """The last time a Celery worker or beat process said it was alive (``ops.heartbeat``).

    One row per process (``host`` names it: host name and pid), written by a thread of
    that process, so a worker that is stuck or dead stops writing even when the broker
    and beat are fine.
    """

    class Role(models.TextChoices):
        WORKER = "worker", "worker"
        BEAT = "beat", "beat"

    role = models.CharField(max_length=10, choices=Role.choices)
    host = models.CharField(max_length=200)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["role", "host"], name="one_heartbeat_per_process")
        ]

    def __str__(self) -> str:
        return f"{self.role} {self.host} at {self.seen_at:%Y-%m-%d %H:%M:%S}"
