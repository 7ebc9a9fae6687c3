"""A request to cancel by agreement reaches the other players by e-mail."""

import pytest

from community import cancel
from notify.models import Notification

from .conftest import drain, mails_to

pytestmark = pytest.mark.django_db


def test_the_other_player_is_asked_by_mail_and_the_asker_is_not(game, anna, bert):
    cancel.vote(game.pk, anna, True)
    drain()
    assert mails_to(anna) == []
    [message] = mails_to(bert)
    assert message.subject == "Cancel “Counting”?"
    assert "Anna asks to cancel “Counting” (Count to Ten) by agreement." in message.body
    assert "nobody's rating changes" in message.body
    assert f"http://127.0.0.1:8000/g/{game.pk}/" in message.body
    html = message.alternatives[0][0]
    assert "Anna asks to cancel" in html and f'/g/{game.pk}/#cancel-h"' in html
    # It is a game e-mail: its unsubscribe link turns those off.
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/notify/")


def test_asking_twice_sends_one_mail(game, anna, bert):
    cancel.vote(game.pk, anna, True)
    cancel.vote(game.pk, anna, True)
    drain()
    assert len(mails_to(bert)) == 1


def test_a_request_withdrawn_before_the_mail_went_is_not_sent(game, anna, bert):
    cancel.vote(game.pk, anna, True)
    cancel.vote(game.pk, anna, False)
    drain()
    assert mails_to(bert) == []
    row = Notification.objects.get(kind=Notification.Kind.CANCEL_ASKED)
    assert row.skipped == "request withdrawn"


def test_asked_again_after_a_withdrawal_is_a_new_request(game, anna, bert):
    cancel.vote(game.pk, anna, True)
    drain()
    cancel.vote(game.pk, anna, False)
    cancel.vote(game.pk, anna, True)
    drain()
    assert len(mails_to(bert, "Cancel")) == 2


def test_the_game_cancelled_before_the_mail_went_sends_only_the_end(game, anna, bert):
    cancel.vote(game.pk, anna, True)
    cancel.vote(game.pk, bert, True)  # cancelled
    drain()
    assert mails_to(bert, "Cancel “") == []
    assert [m.subject for m in mails_to(bert)] == ["“Counting” was cancelled"]


def test_no_mail_with_game_mails_turned_off(game, anna, bert):
    bert.notify_game_end = False
    bert.save()
    cancel.vote(game.pk, anna, True)
    drain()
    assert mails_to(bert) == []


def test_in_a_game_of_three_only_the_first_request_is_mailed(three, anna, bert, carla):
    game = three
    cancel.vote(game.pk, anna, True)
    cancel.vote(game.pk, bert, True)  # agrees: nobody is asked again
    drain()
    assert mails_to(anna) == [] and mails_to(bert) == []  # bert had agreed when it went
    [message] = mails_to(carla)
    # Said as it stands when the mail goes: both have asked by then.
    assert "Anna, Bert ask to cancel “Three”" in message.body


def test_the_mail_is_in_the_recipients_language(game, anna, bert):
    bert.language = "de"
    bert.save()
    cancel.vote(game.pk, anna, True)
    drain()
    [message] = mails_to(bert)
    assert message.subject == "„Counting“ abbrechen?"
    assert "Anna möchte „Counting“ (Count to Ten) einvernehmlich abbrechen." in message.body
