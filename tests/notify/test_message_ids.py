"""What arrives and how often (README): a mail is marked "sending" before the SMTP
conversation, carries a Message-ID fixed for its row, and goes again only when a worker
died after that mark and its claim has gone stale, with the same Message-ID."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from notify import delivery, outbox
from notify.models import Notification

from .backends import MarkCheckingBackend
from .conftest import turn

pytestmark = pytest.mark.django_db


def bert_turn_row():
    return Notification.objects.filter(kind="turn", channel="email", user__username="bert").latest(
        "pk"
    )


def test_a_mail_carries_the_message_id_of_its_row(game, anna, bert):
    turn(game, anna)
    row = bert_turn_row()
    assert delivery.deliver(row.pk) == "sent"
    [message] = mail.outbox
    assert message.extra_headers["Message-ID"] == row.message_id == f"<{row.delivery_id}@127.0.0.1>"
    assert message.message()["Message-ID"] == row.message_id


def test_each_row_has_its_own_id(game, anna, bert):
    turn(game, anna)
    ids = list(Notification.objects.values_list("delivery_id", flat=True))
    assert len(ids) > 2 and len(set(ids)) == len(ids)


def test_the_sending_mark_is_written_before_the_smtp_conversation(game, anna, bert, settings):
    settings.EMAIL_BACKEND = "tests.notify.backends.MarkCheckingBackend"
    MarkCheckingBackend.seen = []
    turn(game, anna)
    row = bert_turn_row()
    assert delivery.deliver(row.pk) == "sent"
    [seen] = MarkCheckingBackend.seen
    assert seen["pk"] == row.pk and seen["sending_at"] is not None


def test_a_mail_whose_worker_died_while_sending_goes_again_only_when_its_claim_is_stale(
    game, anna, bert, clock
):
    turn(game, anna)
    row = bert_turn_row()
    # A worker claimed it, marked it sending, talked to the mail server, and died.
    now = timezone.now()
    Notification.objects.filter(pk=row.pk).update(claimed_at=now, sending_at=now)
    clock.shift(outbox.CLAIM_TIMEOUT - datetime.timedelta(seconds=1))
    assert delivery.deliver(row.pk) == "not claimed"  # the claim may be a live worker's
    assert mail.outbox == []
    clock.shift(datetime.timedelta(seconds=2))
    assert delivery.deliver(row.pk) == "sent"
    [again] = mail.outbox
    assert again.extra_headers["Message-ID"] == row.message_id
    assert delivery.deliver(row.pk) == "not claimed"


def test_a_mail_that_is_no_longer_wanted_is_not_sent_again(game, anna, bert, clock):
    turn(game, anna)
    row = bert_turn_row()
    now = timezone.now()
    Notification.objects.filter(pk=row.pk).update(claimed_at=now, sending_at=now)
    turn(game, bert)  # bert moved meanwhile: the turn the mail was about is over
    clock.shift(outbox.CLAIM_TIMEOUT + datetime.timedelta(seconds=1))
    delivery.deliver(row.pk)
    row.refresh_from_db()
    assert row.skipped == "not to move" and row.sending_at is None
    assert not [m for m in mail.outbox if m.to == [bert.email]]
