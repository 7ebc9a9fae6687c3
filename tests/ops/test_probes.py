"""/healthz says the process answers; /readyz says whether the site works: its
database, Redis, broker, migrations, the worker's and beat's heartbeats, the outbox."""

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from notify.models import Notification
from tests.conftest import need_service

from .conftest import set_back

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_without_the_database_or_a_cookie(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response.content == b"ok"
    assert not response.cookies


def test_readyz_is_ready_when_everything_works(client, alive):
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert answer["ready"] is True
    assert answer["version"] == "1.0.0"
    assert answer["failing"] == []
    assert set(answer["checks"]) == {
        "database", "redis", "broker", "migrations", "worker", "beat", "outbox"
    }  # fmt: skip
    assert all(check["ok"] for check in answer["checks"].values())
    assert answer["checks"]["worker"]["age_seconds"] < 60
    assert not response.cookies


def test_readyz_names_a_worker_not_seen_for_too_long(client, alive, settings):
    settings.HEARTBEAT_STALE_SECONDS = 120
    set_back("worker", 121)
    response = client.get("/readyz")
    assert response.status_code == 503
    answer = response.json()
    assert answer["ready"] is False
    assert answer["failing"] == ["worker"]
    assert answer["checks"]["worker"]["age_seconds"] >= 121
    assert answer["checks"]["beat"]["ok"]


def test_readyz_names_beat_when_it_never_wrote(client, with_workers):
    from ops.heartbeat import beat

    beat("worker")
    answer = client.get("/readyz").json()
    assert answer["failing"] == ["beat"]
    assert answer["checks"]["beat"]["seen_at"] is None


def test_without_a_worker_tasks_run_in_process_and_worker_and_beat_are_not_asked(client):
    # The tests' default, as a shell without REDIS_URL: CELERY_TASK_ALWAYS_EAGER.
    answer = client.get("/readyz").json()
    assert answer["checks"]["worker"] == {"ok": True, "eager": True}
    assert answer["checks"]["beat"] == {"ok": True, "eager": True}


def test_readyz_names_the_outbox_when_a_due_row_waits_too_long(client, alive, settings):
    settings.OUTBOX_STALE_SECONDS = 600
    now = timezone.now()
    for minutes, key in ((11, "old"), (1, "new")):
        Notification.objects.create(
            kind="raw",
            address="x@example.com",
            dedupe_key=key,
            due_at=now - datetime.timedelta(minutes=minutes),
        )
    Notification.objects.create(  # sent long ago: not waiting
        kind="raw", address="y@example.com", dedupe_key="sent", sent_at=now,
        due_at=now - datetime.timedelta(hours=5),
    )  # fmt: skip
    response = client.get("/readyz")
    assert response.status_code == 503
    answer = response.json()
    assert answer["failing"] == ["outbox"]
    email = answer["checks"]["outbox"]["channels"]["email"]
    assert email["due"] == 2
    assert 11 * 60 <= email["oldest_due_age_seconds"] < 12 * 60
    assert answer["checks"]["outbox"]["channels"]["push"] == {
        "due": 0, "oldest_due_age_seconds": None
    }  # fmt: skip


def test_redis_unset_is_ready_and_says_so(client, alive, settings):
    settings.REDIS_URL = ""
    check = client.get("/readyz").json()["checks"]["redis"]
    assert check == {"ok": True, "configured": False}


def test_redis_down_is_not_ready(client, alive, settings):
    settings.REDIS_URL = "redis://127.0.0.1:20999/0"  # nothing listens there
    response = client.get("/readyz")
    assert response.status_code == 503
    assert "redis" in response.json()["failing"]


@pytest.mark.django_db(transaction=True)
def test_readyz_with_the_database_down_is_a_503_naming_it_never_a_500(client, with_workers):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "20998"  # nothing listens there
    try:
        response = client.get("/readyz")
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port
    assert response.status_code == 503
    answer = response.json()
    assert answer["checks"]["database"]["ok"] is False
    assert {"database", "worker", "beat", "outbox"} <= set(answer["failing"])
    assert client.get("/healthz").status_code == 200
