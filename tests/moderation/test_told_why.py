"""Moderation tells why (DSA Art. 17): a banned or chat-muted player learns the
moderator's reason by mail, in their language, and on their next visit: the banned one
when they sign in with the right password, the muted one on their game pages and when
they try to write."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from games import play
from games.models import ChatMessage
from moderation import actions
from notify import delivery
from notify.models import Notification

from .admin_helpers import moderator, run_action

pytestmark = pytest.mark.django_db

REASON = "Insulted the other players in game 12, again after a warning."


def sign_in(client, password="a-long-test-password"):
    return client.post("/accounts/login/", {"login": "alice", "password": password})


def test_a_banned_player_who_signs_in_sees_the_reason(client, alice):
    actions.ban(moderator(), alice, REASON)
    response = sign_in(client)
    assert "_auth_user_id" not in client.session
    body = response.content.decode()
    assert REASON in body
    assert "A moderator has blocked this account" in body


def test_the_reason_is_not_shown_to_someone_who_does_not_know_the_password(client, alice):
    actions.ban(moderator(), alice, REASON)
    body = sign_in(client, password="a-wrong-guess-0000").content.decode()
    assert REASON not in body


def test_an_unbanned_then_signed_in_player_sees_no_old_reason(client, alice):
    actions.ban(moderator(), alice, REASON)
    actions.unban(moderator(), alice, "Apologised")
    sign_in(client)
    assert "_auth_user_id" in client.session


def mails_to(user, mailoutbox):
    delivery.drain()
    return [m for m in mailoutbox if m.to == [user.email]]


def test_a_banned_player_gets_a_mail_with_the_reason_in_their_language(alice, mailoutbox):
    alice.language = "de"
    alice.save()
    actions.ban(moderator(), alice, REASON)
    [mail] = mails_to(alice, mailoutbox)
    assert mail.subject == "Dein Konto wurde gesperrt"
    assert REASON in mail.body
    assert REASON in mail.alternatives[0][0]
    # Sent once: the row's key is the audit entry.
    assert Notification.objects.filter(address=alice.email).count() == 1


def test_a_muted_player_gets_a_mail_with_the_reason_and_the_end(alice, mailoutbox):
    ban = actions.mute_chat(moderator(), alice, REASON, days=7)
    [mail] = mails_to(alice, mailoutbox)
    assert mail.subject == "You were muted in the chat"
    assert REASON in mail.body
    assert str(ban.until.year) in mail.body


def test_a_muted_player_sees_the_reason_on_the_game_page_and_cannot_chat(client, started):
    game, first, second = started
    actions.mute_chat(moderator(), first, REASON, days=7)
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert REASON in page and "muted you in chat until" in page
    response = client.post(f"/g/{game.pk}/chat", {"text": "you all cheat"})
    assert response.status_code == 403
    assert REASON in response.content.decode()
    assert not ChatMessage.objects.exists()
    # The other player reads no reason and chats as before.
    client.force_login(second)
    assert REASON not in client.get(f"/g/{game.pk}/").content.decode()
    play.post_chat(game.pk, second, "hello")


def test_a_chat_mute_ends_by_itself_and_its_notice_with_it(client, started):
    game, first, _ = started
    ban = actions.mute_chat(moderator(), first, REASON, days=7)
    client.force_login(first)
    assert REASON in client.get(f"/g/{game.pk}/").content.decode()
    with time_machine.travel(ban.until + datetime.timedelta(minutes=1), tick=False):
        assert REASON not in client.get(f"/g/{game.pk}/").content.decode()
        play.post_chat(game.pk, first, "I am back")


def test_a_moderator_lifts_a_chat_mute(started):
    game, first, _ = started
    actions.mute_chat(moderator(), first, REASON, days=30)
    with pytest.raises(play.PlayError, match="muted"):
        play.post_chat(game.pk, first, "hello?")
    actions.unmute_chat(moderator(), first, "Mistaken identity")
    play.post_chat(game.pk, first, "thanks")
    with pytest.raises(actions.ModerationError, match="not muted"):
        actions.unmute_chat(moderator(), first, "again")


def test_the_admin_mutes_with_a_reason_that_the_form_says_the_player_is_told(client, alice):
    client.force_login(moderator())
    page, done = run_action(
        client, "/admin/accounts/user/", "mute_chat_for_a_week", [alice.pk], reason=REASON
    )
    assert "told to the player" in page.content.decode()
    assert done.status_code == 302
    assert alice.chat_ban.reason == REASON
    assert alice.chat_ban.until > timezone.now() + datetime.timedelta(days=6)
