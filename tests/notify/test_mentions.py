"""@name in a game's chat: the player named hears of it by mail (with the line) and on
their devices and webhooks (without it: a game's chat is for its players)."""

import pytest
from django.core import mail
from django.test import Client

from games import play
from moderation.models import ChatMute
from notify.models import Notification

from .conftest import add_hook, drain, mails_to, subscribe

pytestmark = pytest.mark.django_db


def test_a_mention_mails_the_player_named_with_the_line(game, anna, bert):
    play.post_chat(game.pk, anna, "@bert shall we agree on a draw?")
    drain()
    [message] = mails_to(bert, "mentioned you")
    assert message.subject == "Anna mentioned you in “Counting”"
    assert "@bert shall we agree on a draw?" in message.body
    assert f"/g/{game.pk}/" in message.body
    assert mails_to(anna) == []  # the writer is not told of their own line


def test_the_display_name_counts_too_and_a_word_that_only_starts_so_does_not(game, anna, bert):
    play.post_chat(game.pk, anna, "well played @Bert!")
    play.post_chat(game.pk, anna, "@berta is not here, nor is mail@bert")
    drain()
    assert len(mails_to(bert, "mentioned you")) == 1


def test_the_push_and_the_webhook_say_who_but_not_what(game, anna, bert, push_service, hooks):
    receiver = hooks(secret="k" * 64)
    client = Client()
    client.force_login(bert)
    subscribe(client, push_service.subscription("bert"))
    add_hook(bert, receiver.url)
    play.post_chat(game.pk, anna, "@bert the secret plan is north")
    drain()
    [payload] = push_service.payloads("bert")
    assert payload["title"] == "Anna mentioned you in “Counting”"
    assert "secret plan" not in str(payload)
    [body] = receiver.bodies()
    assert body["event"] == "mentioned" and "secret plan" not in str(body)


def test_no_mention_from_a_player_one_muted_nor_of_a_hidden_line(game, anna, bert):
    ChatMute.objects.create(user=bert, muted=anna)
    play.post_chat(game.pk, anna, "@bert hello")
    drain()
    assert mails_to(bert) == []
    ChatMute.objects.all().delete()
    line = play.post_chat(game.pk, anna, "@bert something rude")
    line.hidden = True
    line.save()
    drain()
    assert mails_to(bert) == []
    assert Notification.objects.filter(
        kind="mentioned", skipped="chat line gone or hidden"
    ).exists()


def test_the_mention_mail_can_be_switched_off(game, anna, bert):
    bert.notify_mention = False
    bert.save()
    play.post_chat(game.pk, anna, "@bert hi")
    drain()
    assert mail.outbox == []
