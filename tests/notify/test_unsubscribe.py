"""One-click unsubscribe and per-game mute, without logging in."""

import pytest
from django.test import Client

from notify.emails import mute_token, unsubscribe_token
from notify.models import Mute

from .conftest import drain, mails_to, turn

pytestmark = pytest.mark.django_db


def link_from(message, header="List-Unsubscribe"):
    return message.extra_headers[header].strip("<>").removeprefix("http://127.0.0.1:8000")


def test_unsubscribe_link_from_the_mail_works_without_login(game, anna, bert):
    turn(game, anna)
    drain()
    url = link_from(mails_to(bert)[0])
    client = Client(enforce_csrf_checks=True)
    page = client.get(url)
    assert page.status_code == 200
    assert (
        "Stop e-mails of these kinds: your turn, daily digest, your queued actions were not"
        " played?" in page.content.decode()
    )
    bert.refresh_from_db()
    assert bert.notify_turn  # GET only asks
    # RFC 8058 one-click: a mail client posts without cookies or CSRF token.
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    bert.refresh_from_db()
    assert not bert.notify_turn
    turn(game, bert)
    turn(game, anna)
    drain()
    assert len(mails_to(bert)) == 1


@pytest.mark.parametrize(
    ("kind", "field", "off"),
    [("reminder", "notify_reminder_hours", 0), ("game_finished", "notify_game_end", False)],
)
def test_each_kind_unsubscribes_its_own_preference(bert, kind, field, off):
    Client().post(f"/notify/unsubscribe/{unsubscribe_token(bert, kind)}/")
    bert.refresh_from_db()
    assert getattr(bert, field) == off and bert.notify_turn


def test_bad_or_forged_tokens_are_refused(bert):
    token = unsubscribe_token(bert, "turn")
    client = Client()
    for bad in (token[:-2] + "xx", "nonsense", token.replace(":", ".", 1)):
        assert client.post(f"/notify/unsubscribe/{bad}/").status_code == 400
    bert.refresh_from_db()
    assert bert.notify_turn


def test_mute_link_mutes_only_that_game(game, anna, bert):
    client = Client(enforce_csrf_checks=True)
    url = f"/notify/mute/{mute_token(bert, game)}/"
    assert "Stop all messages about" in client.get(url).content.decode()
    assert client.post(url).status_code == 200
    assert Mute.objects.filter(user=bert, game=game).exists()
    assert client.post(f"/notify/mute/{mute_token(bert, game)}x/").status_code == 400
    turn(game, anna)
    drain()
    assert mails_to(bert) == []


def test_mute_button_on_the_game_page(game, bert):
    client = Client()
    client.force_login(bert)
    assert "No messages about this game" in client.get(f"/g/{game.pk}/").content.decode()
    for _ in range(2):  # a double click mutes, it does not mute and unmute
        client.post(f"/notify/game/{game.pk}/mute", {"mute": "1"})
        assert Mute.objects.filter(user=bert, game=game).exists()
    assert "Tell me about this game again" in client.get(f"/g/{game.pk}/").content.decode()
    client.post(f"/notify/game/{game.pk}/mute", {"mute": "0"})
    assert not Mute.objects.filter(user=bert, game=game).exists()


def test_only_players_can_mute_with_the_button(game, db):
    from tests.factories import UserFactory

    client = Client()
    client.force_login(UserFactory())
    assert client.post(f"/notify/game/{game.pk}/mute").status_code == 404


def test_the_unsubscribe_page_names_every_kind_its_setting_covers(anna):
    """A game's start, its end, a stand-in, a seat gone to a substitute, a request
    to cancel, an invitation, a rematch offer and the requests to agree to a pause or a
    take-back share one setting: the link in any of them says all are switched off, not
    only its own."""
    client = Client()
    page = client.get(f"/notify/unsubscribe/{unsubscribe_token(anna, 'game_started')}/")
    text = page.content.decode()
    assert "Stop e-mails of these kinds: game started, game finished, " in text
    assert "a computer player took your seat, your seat went to a substitute, " in text
    assert "a request to cancel a game, an invitation to a game, a rematch offer, " in text
    assert (
        "a request to pause a game, a request to end a pause early, a request to take back a"
        " turn?" in text
    )
    page = client.get(f"/notify/unsubscribe/{unsubscribe_token(anna, 'last_warning')}/")
    assert "Stop e-mails of this kind: last warning?" in page.content.decode()
