"""/metrics: not there without METRICS_TOKEN, the token required, and its counters move
with what happens on the site (requests, moves, mail sent)."""

import pytest
from django.core import mail
from prometheus_client.parser import text_string_to_metric_families

from notify import delivery
from notify.models import Notification
from tests.notify.backends import RefusingBackend

pytestmark = pytest.mark.django_db

TOKEN = "s3cret-metrics-token"


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = TOKEN


def scrape(client) -> dict:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    values = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            values[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return values


def value(values, name, **labels) -> float:
    return values.get((name, tuple(sorted(labels.items()))), 0.0)


def test_no_metrics_without_a_token_configured(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


def test_the_token_is_required(client, token):
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": TOKEN}).status_code == 401
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert not response.cookies


def test_requests_are_counted_by_route_name_not_path(client, token, started):
    game = started[0]
    before = scrape(client)
    client.get(f"/g/{game.pk}/")
    client.get("/no/such/page/")
    after = scrape(client)
    assert value(after, "pbw_http_requests_total", route="game", status="200") == (
        value(before, "pbw_http_requests_total", route="game", status="200") + 1
    )
    assert value(after, "pbw_http_requests_total", route="unmatched", status="404") == (
        value(before, "pbw_http_requests_total", route="unmatched", status="404") + 1
    )
    assert value(after, "pbw_http_request_duration_seconds_count", route="game") > 0
    # Names, not paths: no label holds the game's address (a name may hold a digit, as
    # the API's "api-v1:..." do).
    routes = {dict(labels).get("route", "") for _, labels in after}
    assert not any("/" in route for route in routes), routes


def test_a_move_and_its_mail_move_the_counters(
    client, token, started, django_capture_on_commit_callbacks
):
    game, first, second = started
    delivery.drain()
    before = scrape(client)
    client.force_login(first)
    mail.outbox.clear()
    for action in ({"type": "add", "n": 1}, {"type": "end"}):
        with django_capture_on_commit_callbacks(execute=True):  # moves count once committed
            response = client.post(
                f"/g/{game.pk}/act", {"action": action}, content_type="application/json"
            )
        assert response.status_code == 200
    delivery.drain()
    assert len(mail.outbox) == 1  # the turn mail to the second player
    after = scrape(client)
    assert value(after, "pbw_moves_total", title="count") >= (
        value(before, "pbw_moves_total", title="count") + 2
    )
    sent = ("pbw_deliveries_total", {"channel": "email", "outcome": "sent"})
    assert value(after, sent[0], **sent[1]) == value(before, sent[0], **sent[1]) + 1
    assert value(after, "pbw_games_running", title="count") == 1
    assert value(after, "pbw_outbox_due", channel="email") == 0


def test_a_failed_delivery_and_its_retry_are_counted(client, token, started, settings):
    game = started[0]
    delivery.drain()
    before = scrape(client)
    settings.EMAIL_BACKEND = "tests.notify.backends.RefusingBackend"
    RefusingBackend.refusing = True  # whatever a test before left
    row = Notification.objects.create(
        kind="raw", address="x@example.com", dedupe_key="fails", subject="s", text="t",
        due_at=game.created_at,
    )  # fmt: skip
    assert delivery.deliver(row.pk) == "failed"
    Notification.objects.filter(pk=row.pk).update(next_attempt_at=None)
    RefusingBackend.refusing = False
    try:
        assert delivery.deliver(row.pk) == "sent"
    finally:
        RefusingBackend.refusing = True
    after = scrape(client)
    for outcome in ("failed", "sent"):
        labels = {"channel": "email", "outcome": outcome}
        assert value(after, "pbw_deliveries_total", **labels) == (
            value(before, "pbw_deliveries_total", **labels) + 1
        )
    assert value(after, "pbw_delivery_retries_total", channel="email") == (
        value(before, "pbw_delivery_retries_total", channel="email") + 1
    )


def test_sign_ups_and_tasks_are_counted(client, token, settings):
    from notify import tasks

    before = scrape(client)
    response = client.post(
        "/accounts/signup/",
        {"email": "new@example.com", "username": "newbie", "password1": "a-Long-pass-123",
         "password2": "a-Long-pass-123"},
    )  # fmt: skip
    assert response.status_code == 302
    tasks.drain.delay()
    after = scrape(client)
    assert value(after, "pbw_signups_total") == value(before, "pbw_signups_total") + 1
    labels = {"task": "notify.tasks.drain", "outcome": "success"}
    assert value(after, "pbw_celery_tasks_total", **labels) == (
        value(before, "pbw_celery_tasks_total", **labels) + 1
    )


def test_the_grafana_dashboard_asks_only_for_metrics_the_site_exposes(client, token):
    import json
    import re

    from django.conf import settings

    dashboard = json.loads((settings.BASE_DIR / "deploy" / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    names = {n for e in exprs for n in re.findall(r"pbw_\w+", e)}
    text = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).content.decode()
    exposed = set(re.findall(r"^# TYPE (pbw_\w+)", text, re.M))
    for name in names:
        base = re.sub(r"_(bucket|total)$", "", name)
        assert name in exposed or base in exposed, name
