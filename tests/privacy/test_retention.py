"""What the privacy notice promises to keep no longer goes after the periods in settings:
unconfirmed accounts that never played, sent outbox rows and their delivery records,
expired sessions. Beat runs it hourly; ``manage.py retention --dry-run`` only counts."""

import datetime
import io

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from notify.models import Notification
from privacy import retention
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


def unconfirmed(username, **fields):
    user = UserFactory(username=username, **fields)
    EmailAddress.objects.filter(user=user).update(verified=False)
    return user


def exists(user) -> bool:
    return User.objects.filter(pk=user.pk).exists()


def test_an_unconfirmed_account_that_never_played_goes_after_the_period(settings):
    settings.RETAIN_UNVERIFIED_DAYS = 5
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        never = unconfirmed("never")
        confirmed = UserFactory(username="confirmed")
        staff = unconfirmed("staff", is_staff=True)
    with time_machine.travel(start + 5 * DAY - datetime.timedelta(minutes=1), tick=False):
        retention.apply()
        assert exists(never)
    with time_machine.travel(start + 5 * DAY + datetime.timedelta(minutes=1), tick=False):
        retention.apply()
    assert not exists(never)
    assert not EmailAddress.objects.filter(email="never@example.com").exists()
    assert exists(confirmed) and exists(staff)


def test_an_unconfirmed_account_that_sat_at_a_game_or_signed_in_stays(count_kind, settings):
    settings.RETAIN_UNVERIFIED_DAYS = 5
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        player = unconfirmed("player")
        running_game("count", [player, UserFactory()])
        signed_in = unconfirmed("signed_in", last_login=start)
    with time_machine.travel(start + 30 * DAY, tick=False):
        retention.apply()
    assert exists(player) and exists(signed_in)


def row(key, **fields):
    return Notification.objects.create(
        kind=Notification.Kind.RAW,
        address="someone@example.com",
        dedupe_key=key,
        **{"due_at": timezone.now(), **fields},
    )


def test_sent_and_abandoned_outbox_rows_go_after_the_period(settings):
    settings.RETAIN_SENT_DAYS = 10
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        sent = row("sent", sent_at=start)
        skipped = row("skipped", skipped="no active user")
        failing = row("failing", attempts=3, last_error="SMTPServerDisconnected")
        waiting = row("waiting", due_at=start + 20 * DAY)
    with time_machine.travel(start + 9 * DAY, tick=False):
        fresh = row("fresh", sent_at=timezone.now())
        retention.apply()
        assert Notification.objects.count() == 5
    with time_machine.travel(start + 10 * DAY + datetime.timedelta(minutes=1), tick=False):
        retention.apply()
    left = set(Notification.objects.values_list("dedupe_key", flat=True))
    assert left == {waiting.dedupe_key, fresh.dedupe_key}
    assert not {sent.dedupe_key, skipped.dedupe_key, failing.dedupe_key} & left


def test_expired_sessions_go():
    old = SessionStore()
    old["_auth_user_id"] = "1"
    old.set_expiry(60)
    old.create()
    current = SessionStore()
    current.create()
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=5), tick=False):
        retention.apply()
    assert list(Session.objects.values_list("session_key", flat=True)) == [current.session_key]


def test_the_command_counts_with_dry_run_and_deletes_without(settings):
    settings.RETAIN_UNVERIFIED_DAYS = 1
    with time_machine.travel(timezone.now() - 3 * DAY, tick=False):
        unconfirmed("old")
        row("sent", sent_at=timezone.now() - 60 * DAY)
    out = io.StringIO()
    call_command("retention", "--dry-run", stdout=out)
    assert "unverified accounts: 1 due" in out.getvalue()
    assert "sent or abandoned outbox rows: 1 due" in out.getvalue()
    assert User.objects.filter(username="old").exists() and Notification.objects.exists()
    out = io.StringIO()
    call_command("retention", stdout=out)
    assert "unverified accounts: 1 deleted" in out.getvalue()
    assert not User.objects.filter(username="old").exists()
    assert not Notification.objects.exists()


def test_beat_runs_it():
    from config.celery import app

    entry = next(
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"].startswith("privacy.")
    )
    assert entry["schedule"] <= 24 * 60 * 60
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
