"""A refresh after a step the viewer cannot see (another seat writing its secret
plan) finds nothing new; after one they see, it sends the new board (and keeps the
parts that did not change: htmx puts its own copies back, hx-preserve)."""

import re

import pytest
from django.test import Client

from games import play, replay
from tal.engine import ENGINE

from .conftest import seat_user, to_planning

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def poll_url(page):
    return re.search(r'id="game-poll" hidden hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")


def test_a_secret_plan_step_of_another_seat_sends_nothing(users, tal_game):
    """Not even the header and the next poll: the version stays (games.numbering)."""
    state = to_planning(tal_game)
    planner, watcher = sorted(ENGINE.active_seats(state))[:2]
    client = Client()
    client.force_login(seat_user(tal_game, watcher))
    page = client.get(f"/g/{tal_game.pk}/").content.decode()
    url = poll_url(page)
    for _ in range(2):
        tal_game.refresh_from_db()
        state = replay.current_state(tal_game)
        step = next(a for a in ENGINE.legal_actions(state, planner) if a["type"] == "plan")
        play.act(tal_game.pk, seat_user(tal_game, planner), step, None)
        assert client.get(url, headers=HTMX).status_code == 204


def test_a_step_the_viewer_sees_sends_the_new_board(users, tal_game):
    state = to_planning(tal_game)
    planner, watcher = sorted(ENGINE.active_seats(state))[:2]
    client = Client()
    client.force_login(seat_user(tal_game, planner))
    url = poll_url(client.get(f"/g/{tal_game.pk}/").content.decode())
    step = next(a for a in ENGINE.legal_actions(state, planner) if a["type"] == "plan")
    play.act(tal_game.pk, seat_user(tal_game, planner), step, None)  # from another tab
    body = client.get(url, headers=HTMX).content.decode()
    assert "tal-valley" in body and 'class="plan-arrow"' in body
    assert '<div id="part-board" class="part" hx-preserve="true">' not in body
