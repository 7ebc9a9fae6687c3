"""The soak's receivers (bench/soak_sinks.py) take what the site really sends: a mail
from Django's SMTP backend, a push encrypted as notify.push encrypts it, a webhook post
with its delivery header; and they misbehave as the soak tells them (stopped, hanging
after the message, 500, 429 with Retry-After, slower than the sender waits). The soak
also reads the site's own turn subjects as turns."""

import json
import smtplib
import socket
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests
from django.core.mail import EmailMessage
from django.core.mail.backends.smtp import EmailBackend
from django.template.loader import render_to_string
from django.utils import translation
from pywebpush import WebPusher

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import soak  # noqa: E402
from soak_sinks import HttpSink, Log, SmtpSink  # noqa: E402


@pytest.fixture
def smtp():
    sink = SmtpSink(0, Log())
    yield sink
    sink.close()


@pytest.fixture
def http():
    sink = HttpSink(0, Log(), slow_seconds=1.5)
    yield sink
    sink.close()


def send(port: int, timeout: float = 5) -> str:
    backend = EmailBackend(host="127.0.0.1", port=port, timeout=timeout, use_tls=False)
    message = EmailMessage(
        "Your turn in “Soak 3”",
        "Make your move",
        "site@example.org",
        ["soak7@example.org"],
        connection=backend,
        headers={"Message-ID": "<turn-1@example.org>"},
    )
    message.send()
    return "<turn-1@example.org>"


def test_a_mail_arrives_with_its_message_id_recipient_and_subject(smtp):
    message_id = send(smtp.port)
    (item,) = smtp.log.snapshot()
    assert (item.channel, item.user, item.title) == ("email", "soak7", "Your turn in “Soak 3”")
    assert item.ident == message_id and item.accepted


def test_a_stopped_sink_refuses_and_a_started_one_takes_mail_on_the_same_port(smtp):
    smtp.stop()
    with pytest.raises(ConnectionRefusedError):
        send(smtp.port)
    smtp.start()
    send(smtp.port)
    assert len(smtp.log.snapshot()) == 1


def test_a_hanging_sink_has_the_mail_and_never_answers(smtp):
    smtp.mode = "hang"
    with pytest.raises((socket.timeout, smtplib.SMTPServerDisconnected)):
        send(smtp.port, timeout=1)
    (item,) = smtp.log.snapshot()
    assert item.mode == "hang"


def test_a_push_is_decrypted_and_a_post_read_with_its_delivery_id(http):
    sub = http.subscription("soak4")
    info = {"endpoint": sub["endpoint"], "keys": {"p256dh": sub["p256dh"], "auth": sub["auth"]}}
    body = WebPusher(info).encode(
        json.dumps({"title": "Your turn in “Soak 2”"}).encode(), "aes128gcm"
    )["body"]
    answer = requests.post(sub["endpoint"], data=body, headers={"Content-Encoding": "aes128gcm"})
    assert answer.status_code == 200
    post = requests.post(
        http.url("/hook/soak4"), json={"title": "t", "id": "12"}, headers={"X-PBW-Delivery": "99"}
    )
    assert post.status_code == 200
    push, hook = http.log.snapshot()
    assert (push.channel, push.user, push.title) == ("push", "soak4", "Your turn in “Soak 2”")
    assert (hook.channel, hook.ident) == ("webhook", "99")  # the header before the body
    requests.post(http.url("/hook/soak4"), json={"title": "t", "id": "12"})
    assert http.log.snapshot()[-1].ident == "12"


def test_refusing_and_slow_receivers(http):
    http.mode = "500"
    assert requests.post(http.url("/hook/a"), json={}).status_code == 500
    http.mode = "429"
    answer = requests.post(http.url("/hook/a"), json={})
    assert answer.status_code == 429 and answer.headers["Retry-After"] == "5"
    http.mode = "slow"
    started = time.monotonic()
    with pytest.raises(requests.Timeout):
        requests.post(http.url("/hook/a"), json={}, timeout=0.5)
    assert time.monotonic() - started < 1.4
    time.sleep(1.5)
    refused_500, refused_429, slow = http.log.snapshot()
    assert not refused_500.accepted and not refused_429.accepted
    assert slow.accepted and slow.mode == "slow"  # it arrived, however late the answer


def test_the_sites_turn_subjects_read_as_turns():
    game = SimpleNamespace(title="Soak 1")
    with translation.override("en"):
        turn = render_to_string("emails/turn-subject.txt", {"game": game}).strip()
        start = render_to_string(
            "emails/game_started-subject.txt", {"game": game, "my_turn": True}
        ).strip()
        started = render_to_string("emails/game_started-subject.txt", {"game": game}).strip()
    assert soak.turn_kind(turn) == "turn"
    assert soak.turn_kind(start) == "start"
    assert soak.turn_kind(started) == ""
