"""One-click links: a turn mail's link opens the game signed in, once, for 7 days,
for that player and that game, and never after a password change."""

import datetime
import re

import pytest
from django.core import mail
from django.test import Client

from notify import signin
from notify.models import UsedSignInLink

from .conftest import drain, mails_to, turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def allowing(bert):
    bert.signin_links = True
    bert.save()
    return bert


def link_in_turn_mail(game, anna, bert) -> str:
    mail.outbox.clear()
    turn(game, anna)
    drain()
    [message] = mails_to(bert, "Your turn")
    [link] = re.findall(r"http://127\.0\.0\.1:8000(/notify/in/[^/\s]+/)", message.body)
    assert link in message.alternatives[0][0]
    return link


def signed_in_as(client):
    return client.session.get("_auth_user_id")


def test_the_link_logs_in_once_and_never_again(game, anna, allowing):
    link = link_in_turn_mail(game, anna, allowing)
    first = Client()
    response = first.get(link)
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    assert signed_in_as(first) == str(allowing.pk)
    assert first.get(f"/g/{game.pk}/").status_code == 200
    second = Client()
    response = second.get(link)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=%2Fg%2F{game.pk}%2F"
    assert signed_in_as(second) is None


def test_the_link_is_refused_after_seven_days(game, anna, allowing, clock):
    link = link_in_turn_mail(game, anna, allowing)
    clock.shift(datetime.timedelta(days=7, minutes=1))
    client = Client()
    response = client.get(link)
    assert response["Location"].startswith("/accounts/login/?next=")
    assert signed_in_as(client) is None


def test_the_link_is_refused_after_a_password_change(game, anna, allowing):
    link = link_in_turn_mail(game, anna, allowing)
    allowing.set_password("a-brand-new-password-2031")
    allowing.save()
    client = Client()
    assert client.get(link)["Location"].startswith("/accounts/login/")
    assert signed_in_as(client) is None
    assert not UsedSignInLink.objects.exists()


def test_an_altered_link_is_refused(game, anna, allowing):
    link = link_in_turn_mail(game, anna, allowing)
    token = link.split("/")[3]
    forged = link.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    client = Client()
    assert client.get(forged)["Location"].startswith("/accounts/login/")
    assert signed_in_as(client) is None
    assert client.get("/notify/in/junk/")["Location"] == "/accounts/login/?next=%2Fmy%2F"


def test_the_link_is_bound_to_its_player_and_game(game, anna, allowing):
    token = signin.token(allowing, game)
    client = Client()
    response = client.get(f"/notify/in/{token}/")
    assert response["Location"] == f"/g/{game.pk}/"
    assert signed_in_as(client) == str(allowing.pk)  # bert, not anyone else


def test_without_permission_the_mail_links_the_game_plainly(game, anna, bert):
    turn(game, anna)
    drain()
    [message] = mails_to(bert, "Your turn")
    assert "/notify/in/" not in message.body
    assert f"http://127.0.0.1:8000/g/{game.pk}/" in message.body


def test_a_player_already_signed_in_keeps_the_link_unused(game, anna, allowing):
    link = link_in_turn_mail(game, anna, allowing)
    client = Client()
    client.force_login(allowing)
    assert client.get(link)["Location"] == f"/g/{game.pk}/"
    assert not UsedSignInLink.objects.exists()


def test_the_link_in_a_push_signs_in_too(game, anna, allowing, push_service):
    from .conftest import subscribe

    client = Client()
    client.force_login(allowing)
    subscribe(client, push_service.subscription("bert"))
    turn(game, anna)
    drain()
    [payload] = push_service.payloads("bert")
    path = payload["url"].removeprefix("http://127.0.0.1:8000")
    assert path.startswith("/notify/in/")
    fresh = Client()
    assert fresh.get(path)["Location"] == f"/g/{game.pk}/"
    assert signed_in_as(fresh) == str(allowing.pk)


def test_the_settings_page_offers_the_choice(bert):
    client = Client()
    client.force_login(bert)
    page = client.get("/settings/").content.decode()
    assert "Links in my turn e-mails and pushes sign me in" in page
