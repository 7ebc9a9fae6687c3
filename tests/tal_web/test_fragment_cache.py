"""The board is rendered once per position and viewer, and a seat's cached board
never reaches anyone else: not another seat, a signed-in spectator or an
anonymous visitor of the public game, whoever asked first."""

import random
from contextlib import contextmanager
from unittest import mock

import pytest
from django.template.backends import jinja2 as jinja_backend
from django.test import Client

from games import play, replay
from tal.engine import ENGINE
from tests.factories import UserFactory

from . import bot
from .conftest import seat_user

pytestmark = pytest.mark.django_db

BID_SECRETS = ("4 + 3", "= <strong>7</strong>", "only you see this")


@contextmanager
def board_renders():
    """Counts the renders of Tal's board template (Jinja2: games.jinja) while the block runs."""
    names = []
    render = jinja_backend.Template.render

    def seen(template, *args, **kwargs):
        names.append(template.template.name)
        return render(template, *args, **kwargs)

    with mock.patch.object(jinja_backend.Template, "render", seen):
        yield lambda: names.count("tal/board.html")


def lay_bids(game):
    bidder = replay.current_state(game).current
    user = seat_user(game, bidder)
    for action in (
        {"type": "bid", "group": 1, "rings": 4},
        {"type": "bid", "group": 1, "rings": 3},
    ):
        play.act(game.pk, user, action, None)
    game.refresh_from_db()
    return bidder


def viewers(game, bidder):
    """A client for each seat but the bidder's, a signed-in stranger and an anonymous one."""
    clients = []
    for seat in range(game.players):
        if seat != bidder:
            c = Client()
            c.force_login(seat_user(game, seat))
            clients.append((f"seat {seat}", c))
    stranger = Client()
    stranger.force_login(UserFactory(username="zed"))
    return [*clients, ("spectator", stranger), ("anonymous", Client())]


@pytest.mark.parametrize("path", ["/g/{id}/", "/g/{id}/board", "/g/{id}/poll?v=0&c=0"])
def test_the_bidders_cached_board_is_never_served_to_anyone_else(users, path, tal_game):
    bidder = lay_bids(tal_game)
    url = path.format(id=tal_game.pk)
    owner = Client()
    owner.force_login(seat_user(tal_game, bidder))
    with board_renders() as renders:
        for _ in range(2):
            body = owner.get(url, headers={"HX-Request": "true"}).content.decode()
            assert "4 + 3 = <strong>7</strong>" in body
        assert renders() == 1  # the second time from the cache
        for who, c in viewers(tal_game, bidder):
            before = renders()
            for _ in range(2):
                body = c.get(url, headers={"HX-Request": "true"}).content.decode()
                assert "Stone market" in body, who  # the board is there...
                for secret in BID_SECRETS:
                    assert secret not in body, (who, secret)  # ...without the bids' values
            # Signed in or not, a spectator sees the same board: they share one copy.
            assert renders() == before + (0 if who == "anonymous" else 1), who


def test_a_written_plan_stays_with_its_seat_when_cached(users, tal_game):
    rng = random.Random(2)
    for _ in range(400):
        tal_game.refresh_from_db()
        state = replay.current_state(tal_game)
        if state.phase == "plan":
            break
        seat = sorted(ENGINE.active_seats(state))[0]
        action = bot.choose(state, seat, ENGINE.legal_actions(state, seat), rng)
        play.act(tal_game.pk, seat_user(tal_game, seat), action, None)
    assert state.phase == "plan"
    planner = sorted(ENGINE.active_seats(state))[0]
    step = next(a for a in ENGINE.legal_actions(state, planner) if a["type"] == "plan")
    play.act(tal_game.pk, seat_user(tal_game, planner), step, None)
    owner = Client()
    owner.force_login(seat_user(tal_game, planner))
    url = f"/g/{tal_game.pk}/"
    for _ in range(2):
        assert 'class="plan-arrow"' in owner.get(url).content.decode()
    for who, c in viewers(tal_game, planner):
        for _ in range(2):
            body = c.get(url).content.decode()
            assert "tal-valley" in body and 'class="plan-arrow"' not in body, who


def test_a_new_move_and_another_language_render_afresh(users, tal_game):
    client = Client()
    seat = replay.current_state(tal_game).current
    user = seat_user(tal_game, seat)
    client.force_login(user)
    url = f"/g/{tal_game.pk}/"
    with board_renders() as renders:
        client.get(url)
        client.get(url)
        assert renders() == 1
        play.act(tal_game.pk, user, {"type": "bid", "group": 1, "rings": 4}, None)
        assert "4 = <strong>4</strong>" in client.get(url).content.decode()
        assert renders() == 2
        user.language = "de"
        user.save()
        assert "Bausteinmarkt" in client.get(url).content.decode()
        assert renders() == 3
        client.get(url)
        assert renders() == 3
        # what the query changes in the drawing is its own copy
        assert "tal-text" in client.get(url + "?text=1").content.decode()
        assert "tal-text" not in client.get(url).content.decode()
        assert renders() == 4
