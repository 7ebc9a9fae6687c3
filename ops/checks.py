"""The readiness checks of /readyz, each cheap and bounded in time, each answering
``{"ok": bool, ...details}`` and never raising: a check that fails says why in a few
words (an exception's class and message), nothing personal."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from celery import current_app
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Count, Min
from django.utils import timezone

from notify.models import Notification

from .models import Heartbeat

Check = dict

# Once every migration is applied, it stays so for the life of this process (its code
# does not change): the migration graph is read from disk once, not on every probe.
_migrated: set[str] = set()


def _failure(error: Exception) -> Check:
    return {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}


def database(alias: str = DEFAULT_DB_ALIAS) -> Check:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        connections[alias].close()  # the next request opens a fresh connection
        return _failure(error)
    return {"ok": True}


def redis() -> Check:
    url = settings.REDIS_URL
    if not url:
        return {"ok": True, "configured": False}
    import redis as redis_client

    try:
        client = redis_client.Redis.from_url(
            url, socket_connect_timeout=0.5, socket_timeout=0.5, retry_on_timeout=False
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        return {**_failure(error), "configured": True}
    return {"ok": True, "configured": True}


def eager() -> bool:
    """Tasks run in the process that queues them: there is no worker or beat to have."""
    return bool(current_app.conf.task_always_eager)


def broker() -> Check:
    if eager():
        return {"ok": True, "eager": True}
    transport = current_app.conf.broker_url.split("://", 1)[0]
    try:
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as error:
        return {**_failure(error), "transport": transport}
    return {"ok": True, "transport": transport}


def migrations(alias: str = DEFAULT_DB_ALIAS) -> Check:
    if alias in _migrated:
        return {"ok": True}
    try:
        executor = MigrationExecutor(connections[alias])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as error:
        return _failure(error)
    if plan:
        names = [f"{m.app_label}.{m.name}" for m, _ in plan]
        return {"ok": False, "unapplied": names[:20], "unapplied_count": len(names)}
    _migrated.add(alias)
    return {"ok": True}


def stale_after() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS)


def heartbeat(role: str, now: datetime.datetime | None = None) -> Check:
    """The freshest heartbeat of any process of ``role``; stale after HEARTBEAT_STALE_SECONDS."""
    if eager():
        return {"ok": True, "eager": True}
    now = now or timezone.now()
    try:
        last = (
            Heartbeat.objects.filter(role=role)
            .order_by("-seen_at")
            .values("seen_at", "host")
            .first()
        )
    except Exception as error:
        return _failure(error)
    if last is None:
        return {"ok": False, "seen_at": None, "age_seconds": None}
    age = (now - last["seen_at"]).total_seconds()
    return {
        "ok": age <= settings.HEARTBEAT_STALE_SECONDS,
        "seen_at": last["seen_at"].isoformat(),
        "age_seconds": round(age, 1),
        "host": last["host"],
    }


def outbox_rows(now: datetime.datetime) -> dict[str, tuple[int, datetime.datetime]]:
    """Per channel: how many rows are due and unsent, and the oldest one's due time.

    Rows kept for a daily digest, skipped or sent are not waiting; a row that failed
    and waits for its retry is (its age says how long the channel has not worked).
    """
    rows = (
        Notification.objects.filter(sent_at=None, skipped="", in_digest=False, due_at__lte=now)
        .values("channel")
        .annotate(depth=Count("pk"), oldest=Min("due_at"))
        .order_by()
    )
    return {row["channel"]: (row["depth"], row["oldest"]) for row in rows}


def outbox(now: datetime.datetime | None = None) -> Check:
    now = now or timezone.now()
    try:
        waiting = outbox_rows(now)
    except Exception as error:
        return _failure(error)
    limit = settings.OUTBOX_STALE_SECONDS
    channels = {}
    for channel in Notification.Channel.values:
        depth, oldest = waiting.get(channel, (0, None))
        age = round((now - oldest).total_seconds(), 1) if oldest else None
        channels[channel] = {"due": depth, "oldest_due_age_seconds": age}
    ages = [c["oldest_due_age_seconds"] or 0 for c in channels.values()]
    return {"ok": max(ages) <= limit, "stale_after_seconds": limit, "channels": channels}


def _worker() -> Check:
    return heartbeat(Heartbeat.Role.WORKER)


def _beat() -> Check:
    return heartbeat(Heartbeat.Role.BEAT)


CHECKS: dict[str, Callable[[], Check]] = {
    "database": database,
    "redis": redis,
    "broker": broker,
    "migrations": migrations,
    "worker": _worker,
    "beat": _beat,
    "outbox": outbox,
}


# Checks that read the database: with the database down they are not asked (each would
# wait for its own connection to fail), they fail saying so.
NEED_DATABASE = {"migrations", "worker", "beat", "outbox"}


def readiness() -> dict:
    """Every check's answer, which failed, and whether the site is ready."""
    results: dict[str, Check] = {}
    for name, check in CHECKS.items():
        if name in NEED_DATABASE and not results["database"]["ok"]:
            if name in ("worker", "beat") and eager():
                results[name] = {"ok": True, "eager": True}
            else:
                results[name] = {"ok": False, "error": "the database is unavailable"}
            continue
        try:
            results[name] = check()
        except Exception as error:  # a check that breaks is a failed check, never a 500
            results[name] = _failure(error)
    failing = [name for name, result in results.items() if not result["ok"]]
    return {
        "ready": not failing,
        "version": settings.VERSION,
        "failing": failing,
        "checks": results,
    }


def trouble(now: datetime.datetime | None = None) -> dict:
    """What the staff banner warns of: the worker's and beat's heartbeats, the outbox."""
    now = now or timezone.now()
    found = {}
    for role in Heartbeat.Role.values:
        result = heartbeat(role, now)
        if not result["ok"]:
            found[role] = result
    result = outbox(now)
    if not result["ok"]:
        found["outbox"] = result
    return found
