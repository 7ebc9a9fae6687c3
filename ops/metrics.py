"""Prometheus metrics (``/metrics``, prometheus-client).

Two kinds, chosen by who can know them:

- events counted where they happen (requests, moves, deliveries, Celery tasks,
  sign-ups) and the open live streams of each web process. With
  ``PROMETHEUS_MULTIPROC_DIR`` set, every process (gunicorn's workers, Celery
  workers) writes its values to files in that directory and a scrape of any web
  process sums them: a worker's deliveries and tasks reach ``/metrics`` only when
  the worker shares that directory with the web processes (same host or volume).
- states read from the database when scraped (the outbox per channel, running
  games per title): right whichever process did the work, and never stale.
"""

from __future__ import annotations

import os

from django.db.models import Count
from django.utils import timezone
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from games.models import Game
from notify.models import Notification

from . import checks

REQUESTS = Counter(
    "pbw_http_requests", "Requests answered, by route name and status.", ["route", "status"]
)
LATENCY = Histogram(
    "pbw_http_request_duration_seconds",
    "Time to answer a request (to the first byte of a stream), by route name.",
    ["route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
MOVES = Counter("pbw_moves", "Moves made by players (computer players too), by title.", ["title"])
LIVE_STREAMS = Gauge(
    "pbw_live_streams",
    "Live update streams open now.",
    multiprocess_mode="livesum",
)
DELIVERIES = Counter(
    "pbw_deliveries",
    "Outbox rows handled by a delivery attempt, by channel and outcome "
    "(sent, failed: retried later, skipped, postponed, interrupted).",
    ["channel", "outcome"],
)
RETRIES = Counter(
    "pbw_delivery_retries",
    "Delivery attempts of rows that had failed before, by channel.",
    ["channel"],
)
TASKS = Counter("pbw_celery_tasks", "Celery task runs, by task and outcome.", ["task", "outcome"])
TASK_DURATION = Histogram(
    "pbw_celery_task_duration_seconds",
    "Time a Celery task ran, by task.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300),
)
SIGNUPS = Counter("pbw_signups", "Accounts signed up.")


class DatabaseCollector:
    """States read from the database at scrape time (a few grouped queries)."""

    def collect(self):
        now = timezone.now()
        depth = GaugeMetricFamily(
            "pbw_outbox_due", "Outbox rows due and not sent, by channel.", labels=["channel"]
        )
        age = GaugeMetricFamily(
            "pbw_outbox_oldest_due_age_seconds",
            "Age of the oldest due unsent outbox row, by channel (0: none waiting).",
            labels=["channel"],
        )
        waiting = checks.outbox_rows(now)
        for channel in Notification.Channel.values:
            count, oldest = waiting.get(channel, (0, None))
            depth.add_metric([channel], count)
            age.add_metric([channel], (now - oldest).total_seconds() if oldest else 0)
        running = GaugeMetricFamily(
            "pbw_games_running", "Games running, by title.", labels=["title"]
        )
        rows = (
            Game.objects.filter(status=Game.Status.ACTIVE)
            .values("kind")
            .annotate(n=Count("pk"))
            .order_by()
        )
        for row in rows:
            running.add_metric([row["kind"]], row["n"])
        yield from (depth, age, running)


_database = DatabaseCollector()


def multiprocess() -> bool:
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def exposition() -> bytes:
    """The text a scrape gets: this process's metrics (or every process's, from the
    multiprocess directory) and the database's states."""
    if multiprocess():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    database = CollectorRegistry()
    database.register(_database)
    return generate_latest(registry) + generate_latest(database)
