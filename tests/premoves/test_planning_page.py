"""The planning board on the game page: a waiting player chooses their next turn on the
board; the queue shows on their page only; a dropped queue is explained on the page and
by mail."""

import re

import pytest
import time_machine

from games import play
from games.models import Game, Premove
from notify import delivery
from tests.notify.conftest import NOON

from .conftest import queue_first_choices

pytestmark = pytest.mark.django_db

MAHARACHA = {"type": "play", "card": "maharacha"}
PASS = {"type": "pass"}
HTMX = {"HX-Request": "true"}


def token_of(html: str) -> str:
    return re.search(r'name="version" value="(v[0-9a-f]+)"', html).group(1)


def test_a_waiting_player_plans_on_the_board_and_sees_the_queue(client, siam):
    game, anna, ben = siam
    client.force_login(ben)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Plan your next turn" in page
    planning = client.get(f"/g/{game.pk}/plan").content.decode()
    assert "Planning your next turn" in planning
    assert f'action="/g/{game.pk}/premove"' in planning  # the board's cards queue, not play
    assert f'action="/g/{game.pk}/act"' not in planning
    answer = client.post(
        f"/g/{game.pk}/premove",
        {"action": '{"card":"maharacha","type":"play"}', "version": token_of(planning)},
        headers=HTMX,
    )
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "Queued for your next turn:" in body and "Planning your next turn" in body
    # A click from the board drawn before the queue changed is stale.
    stale = client.post(
        f"/g/{game.pk}/premove",
        {"action": '{"type":"pass"}', "version": token_of(planning)},
        headers=HTMX,
    )
    assert stale.status_code == 409
    assert len(Premove.objects.get().actions) == 1
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Queued for your next turn:" in page and "Change the plan" in page
    client.post(f"/g/{game.pk}/premove", {"clear": "1"}, headers=HTMX)
    assert not Premove.objects.exists()


def test_the_player_to_move_is_not_offered_planning(client, siam):
    game, anna, ben = siam
    client.force_login(anna)
    assert "Plan your next turn" not in client.get(f"/g/{game.pk}/").content.decode()
    response = client.get(f"/g/{game.pk}/plan")
    assert "Planning your next turn" not in response.content.decode()
    answer = client.post(f"/g/{game.pk}/premove", {"action": '{"type":"pass"}'}, headers=HTMX)
    assert answer.status_code == 409


def test_a_spectator_has_nothing_to_plan(client, siam):
    game, anna, ben = siam
    assert client.get(f"/g/{game.pk}/plan").status_code == 302  # to the game's page
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get(f"/g/{game.pk}/plan").status_code == 302
    answer = client.post(f"/g/{game.pk}/premove", {"action": '{"type":"pass"}'})
    assert answer.status_code == 403


def test_a_dropped_queue_is_explained_on_the_page_and_by_mail(client, siam, mailoutbox):
    game, anna, ben = siam
    queued = queue_first_choices(game, ben, 5, first=MAHARACHA)
    with time_machine.travel(NOON, tick=False):
        delivery.drain()  # the mails of the start
        mailoutbox.clear()
        for action in queued:  # the same Maharacha: the tile Ben would choose is crowned
            play.act(game.pk, anna, action, None)
        delivery.drain()
    client.force_login(ben)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "The actions you had queued for this turn were not played" in page
    assert "That tile cannot be chosen." in page
    mails = [m for m in mailoutbox if m.to == [ben.email]]
    assert len(mails) == 1  # the turn's own mail goes with it
    assert "your queued actions were not played" in mails[0].subject
    assert "That tile cannot be chosen." in mails[0].body
    assert "It is your turn" in mails[0].body
    assert all("Maharacha" not in m.body for m in mailoutbox if m.to == [anna.email])
    client.post(f"/g/{game.pk}/premove", {"clear": "1"}, headers=HTMX)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "were not played" not in page


def test_a_queue_played_leaves_no_turn_mail_for_a_turn_that_never_waited(siam, mailoutbox):
    game, anna, ben = siam
    queue_first_choices(game, ben, 1, first=PASS)
    with time_machine.travel(NOON, tick=False):
        delivery.drain()  # the mails of the start
        mailoutbox.clear()
        play.act(game.pk, anna, PASS, None)
        delivery.drain()
    # Ben's pass was played at once: his turn never waited, so he gets no mail; the
    # turn is Anna's again (the answer to her move shows it).
    assert not [m for m in mailoutbox if m.to == [ben.email]]
    assert Game.objects.get(pk=game.pk).seats.get(user=anna).to_move
