"""The outbox under faults: claims, refusing SMTP, a dead broker, sign-up mail."""

import datetime

import pytest
from django.core import mail
from django.test import Client

from notify import delivery, outbox, tasks
from notify.models import Notification

from .backends import RefusingBackend
from .conftest import drain, mails_to, turn

pytestmark = pytest.mark.django_db
REFUSING = "tests.notify.backends.RefusingBackend"


def turn_row(user):
    return Notification.objects.filter(user=user, kind="turn", skipped="").latest("pk")


def test_two_deliveries_of_one_row_send_it_once(game, anna, bert, monkeypatch):
    turn(game, anna)
    row = turn_row(bert)
    outcomes = []
    real_send = mail.EmailMultiAlternatives.send

    def send_while_another_worker_tries(message, *args, **kwargs):
        # A second worker gets the same row while the first one is sending it.
        outcomes.append(delivery.deliver(row.pk))
        return real_send(message, *args, **kwargs)

    monkeypatch.setattr(mail.EmailMultiAlternatives, "send", send_while_another_worker_tries)
    outcomes.append(delivery.deliver(row.pk))
    outcomes.append(delivery.deliver(row.pk))
    assert outcomes == ["not claimed", "sent", "not claimed"]
    assert len(mails_to(bert)) == 1


def test_a_claim_abandoned_by_a_killed_worker_is_taken_over(game, anna, bert, clock):
    turn(game, anna)
    row = turn_row(bert)
    assert outbox.claim(row.pk, datetime.datetime.now(datetime.UTC))  # and then the worker died
    drain()
    assert mails_to(bert) == []
    clock.shift(datetime.timedelta(minutes=11))
    drain()
    assert len(mails_to(bert)) == 1


def test_smtp_refusing_the_move_succeeds_and_the_mail_goes_out_once_later(
    game, anna, bert, clock, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = REFUSING
    RefusingBackend.refusing = True
    client = Client()
    client.force_login(anna)
    with django_capture_on_commit_callbacks(execute=True):
        for action in ({"type": "add", "n": 1}, {"type": "end"}):
            response = client.post(f"/g/{game.pk}/act", {"action": action}, "application/json")
            assert response.status_code == 200
    row = turn_row(bert)
    assert row.attempts == 1 and row.sent_at is None and "SMTPException" in row.last_error
    assert row.next_attempt_at == row.due_at + outbox.backoff(1)
    clock.shift(datetime.timedelta(minutes=1))
    drain()
    assert turn_row(bert).attempts == 1  # not due again yet
    clock.shift(datetime.timedelta(minutes=2))
    drain()
    assert turn_row(bert).attempts == 2
    RefusingBackend.refusing = False
    clock.shift(datetime.timedelta(minutes=5))
    drain()
    drain()
    assert len(mails_to(bert)) == 1
    assert turn_row(bert).sent_at is not None


def test_broker_down_the_move_succeeds_and_the_drain_sends(
    game, anna, bert, monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(tasks.deliver, "apply_async", broker_down)
    client = Client()
    client.force_login(anna)
    with django_capture_on_commit_callbacks(execute=True):
        for action in ({"type": "add", "n": 1}, {"type": "end"}):
            response = client.post(f"/g/{game.pk}/act", {"action": action}, "application/json")
            assert response.status_code == 200
    assert mails_to(bert) == []
    monkeypatch.undo()
    tasks.drain.delay()
    tasks.drain.delay()
    assert len(mails_to(bert)) == 1


def test_queue_after_commit_delivers_without_a_drain(
    game, anna, bert, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        turn(game, anna)
    assert len(mails_to(bert)) == 1


def test_a_second_queue_with_the_same_key_is_a_no_op(db):
    first = outbox.queue(kind="raw", address="x@example.com", dedupe_key="k", subject="one")
    second = outbox.queue(kind="raw", address="x@example.com", dedupe_key="k", subject="two")
    assert first.pk == second.pk and Notification.objects.get().subject == "one"


def test_sign_up_with_smtp_refusing_creates_the_account_and_a_pending_mail(
    db, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = REFUSING
    RefusingBackend.refusing = True
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/accounts/signup/",
            {
                "email": "new@example.com",
                "username": "newbie",
                "password1": "a-long-test-password",
                "password2": "a-long-test-password",
            },
        )
    assert response.status_code == 302
    row = Notification.objects.get(address="new@example.com")
    assert row.kind == "raw" and row.sent_at is None and row.attempts == 1
    assert "Confirm" in row.subject and "newbie" in row.text
    RefusingBackend.refusing = False
    with __import__("time_machine").travel(
        datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    ):
        drain()
    [message] = mail.outbox
    assert message.to == ["new@example.com"] and message.subject == row.subject


def test_sign_up_fails_whole_when_the_mail_row_cannot_be_written(db, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database refused the outbox row")

    monkeypatch.setattr(outbox, "queue", broken)
    client = Client(raise_request_exception=False)
    response = client.post(
        "/accounts/signup/",
        {
            "email": "new@example.com",
            "username": "newbie",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert response.status_code == 500
    from accounts.models import User

    assert not User.objects.filter(username="newbie").exists()
