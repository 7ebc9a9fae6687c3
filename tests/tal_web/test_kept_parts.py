"""A refresh after a step the viewer cannot see (another seat writing its secret
plan) keeps the board and the log the page has: htmx puts its own copies back
(hx-preserve) and the answer carries the header and the next poll, not the board."""

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


def test_a_secret_plan_step_of_another_seat_sends_neither_board_nor_log(users, tal_game):
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
        response = client.get(url, headers=HTMX)
        body = response.content.decode()
        assert response.status_code == 200 and body.lstrip().startswith('<div id="board-area"')
        assert '<div id="part-board" class="part" hx-preserve="true"></div>' in body
        assert "tal-valley" not in body
        url = poll_url(body)
    # The first step may take the "latest move" mark off the log's last entry (the
    # latest move is now one the watcher cannot see); the second changes nothing.
    assert '<div id="part-log" class="part" hx-preserve="true"></div>' in body
    assert len(response.content) < len(page) / 3
    # the next poll names the same parts again, and finds nothing new
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
