"""An invitation by name and a rematch offer reach their players by e-mail: both wait on
"My games", which a player may not open for days, and a rematch offer lapses."""

import pytest
from django.core import mail

from community import rematch
from games import play
from lobby import invites
from notify.models import Notification
from tests.community.helpers import finish_by_play

from .conftest import drain, mails_to

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_game(clock, count_kind, anna):
    """A private three-seat game of anna's, waiting for players."""
    game = play.create_game(
        anna, count_kind, title="Friday", players=3, options={}, time_limit_days=2, private=True
    )
    drain()
    mail.outbox.clear()
    return game


def test_the_invitee_is_mailed_where_to_answer(open_game, anna, bert):
    invites.invite(open_game.pk, anna, "bert")
    drain()
    assert mails_to(anna) == []
    [message] = mails_to(bert)
    assert message.subject == "Anna invites you to “Friday”"
    body = message.body
    assert "Hello Bert,\n\nAnna invites you to “Friday” (Count to Ten)." in body
    assert "Players so far: Anna" in body and "2 seats are still free." in body
    assert "Time for a move: 2 days." in body
    # A private game shows itself to its players only: the answer is on "My games".
    assert "Accept or decline on your “My games” page: http://127.0.0.1:8000/my/" in body
    assert f"/g/{open_game.pk}/\n" not in body.split("-- \n")[0]
    html = message.alternatives[0][0]
    assert 'href="http://127.0.0.1:8000/my/"' in html and "Anna invites you to" in html
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/notify/")


def test_an_invitation_repeated_sends_one_mail(open_game, anna, bert):
    invites.invite(open_game.pk, anna, "bert")
    with pytest.raises(play.PlayError, match="Bert is invited already"):
        invites.invite(open_game.pk, anna, "Bert")
    drain()
    assert len(mails_to(bert)) == 1


def test_an_invitation_answered_or_a_game_started_before_the_mail_went_is_not_sent(
    open_game, anna, bert, carla
):
    first = invites.invite(open_game.pk, anna, "bert")
    invites.invite(open_game.pk, anna, "carla")
    invites.answer(first.pk, bert, accept=False)
    play.join(open_game.pk, carla)  # carla joined from the lobby without answering
    drain()
    assert mails_to(bert, "invites") == [] and mails_to(carla, "invites") == []
    skipped = dict(
        Notification.objects.filter(kind=Notification.Kind.INVITED).values_list(
            "user__username", "skipped"
        )
    )
    # joining from the lobby answers the invitation too
    assert skipped == {"bert": "answered", "carla": "answered"}


def test_the_invitation_mail_is_a_game_mail_and_in_the_invitees_language(
    open_game, anna, bert, carla
):
    bert.notify_game_end = False
    bert.save()
    carla.language = "de"
    carla.save()
    invites.invite(open_game.pk, anna, "bert")
    invites.invite(open_game.pk, anna, "carla")
    drain()
    assert mails_to(bert) == []
    [message] = mails_to(carla)
    assert message.subject == "Anna lädt dich zu „Friday“ ein"
    assert "Anna lädt dich zu „Friday“ (Count to Ten) ein." in message.body


@pytest.fixture
def finished(three):
    game = three
    finish_by_play(game)
    drain()
    mail.outbox.clear()
    return game


def test_a_rematch_offer_is_mailed_to_the_others_until_they_answer(finished, anna, bert, carla):
    rematch.answer(finished.pk, bert, True)
    drain()
    assert mails_to(bert) == []
    for user in (anna, carla):
        [message] = mails_to(user)
        assert message.subject == "A rematch of “Three”?"
        assert "Bert proposes a rematch of “Three” (Count to Ten)" in message.body
        assert "One refusal ends the offer." in message.body
        assert "http://127.0.0.1:8000/my/" in message.body
        assert f"http://127.0.0.1:8000/g/{finished.pk}/" in message.body
    # a second acceptance is no new offer
    rematch.answer(finished.pk, anna, True)
    drain()
    assert len(mails_to(carla)) == 1


def test_a_rematch_answered_or_declined_before_the_mail_went_is_not_sent(
    finished, anna, bert, carla
):
    rematch.answer(finished.pk, bert, True)
    rematch.answer(finished.pk, anna, True)  # anna answered before her mail went
    drain()
    assert mails_to(anna, "rematch") == []
    [to_carla] = mails_to(carla, "rematch")
    assert "Bert, Anna propose a rematch" in to_carla.body
    mail.outbox.clear()
    again = play.create_game(
        anna,
        finished.kind_info,
        title="Again",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    play.join(again.pk, bert)
    finish_by_play(again)
    rematch.answer(again.pk, anna, True)
    rematch.answer(again.pk, bert, False)  # declined: the offer is over
    drain()
    assert mails_to(bert, "rematch") == []
    row = Notification.objects.get(kind=Notification.Kind.REMATCH_OFFERED, user=bert)
    assert row.skipped == "offer decided or lapsed"


def test_no_invitation_mail_from_a_player_the_invitee_has_muted(open_game, anna, bert):
    from moderation.models import ChatMute

    ChatMute.objects.create(user=bert, muted=anna)
    invites.invite(open_game.pk, anna, "bert")
    drain()
    assert mails_to(bert) == []
    assert Notification.objects.get(kind=Notification.Kind.INVITED).skipped == "inviter muted"
