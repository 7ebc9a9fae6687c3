"""The example bot (clients/python/example_bot.py) decides from what the API shows its
seat, as the site's own computer player decides on the real state."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import bots
from bots.common import pick_random
from games import play, replay
from tests.factories import UserFactory, running_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
from example_bot import strategy  # noqa: E402

pytestmark = pytest.mark.django_db


def through_the_api(client, headers, game):
    """The game as the bot reads it, and the salt it decides with (``pbw_client.Bot``)."""
    shown = client.get(f"/api/v1/games/{game.pk}", headers=headers).json()
    offered = client.get(f"/api/v1/games/{game.pk}/actions", headers=headers).json()
    return shown, f"{game.pk}:{shown['token']}", [entry["action"] for entry in offered["actions"]]


def first_position_where_greedy_is_not_random(client, token_of, game, wanted=lambda s: True):
    """Random moves through the site until the seat to move has a choice (``wanted`` of
    the state) on which the greedy player, seen through the API, differs from the random
    player the example bot used to be: (state, seat, its answer, salt, offered)."""
    rng = random.Random(5)
    engine = game.engine
    for _ in range(300):
        game.refresh_from_db()
        state = replay.state_as_read(game)
        seat = min(engine.active_seats(state))
        user = game.seats.get(number=seat).user
        if len(engine.legal_actions(state, seat)) > 2 and wanted(state):
            shown, salt, offered = through_the_api(client, token_of(user, "read"), game)
            greedy = strategy("greedy")(shown, salt)
            if greedy != strategy("random")(shown, salt):
                return state, seat, greedy, salt, offered
        action = pick_random(engine.legal_actions(state, seat), rng)
        play.act(game.pk, user, action, game.version)
    raise AssertionError("no such position")


@pytest.mark.parametrize(
    "kind, wanted",
    [
        ("siam", lambda state: True),  # no secret ever (the seed is never drawn from again)
        ("tal", lambda state: state.round == 1 and state.auction_revealed),  # none just now
    ],
    ids=["siam", "tal"],
)
def test_the_bots_greedy_pick_through_the_api_is_the_greedy_players(client, token_of, kind, wanted):
    game = running_game(kind, [UserFactory(), UserFactory()])
    state, seat, picked, salt, offered = first_position_where_greedy_is_not_random(
        client, token_of, game, wanted
    )
    assert picked in offered
    assert picked == bots.choose(game.engine, state, seat, "greedy", salt=salt)


TAL_HIDDEN_BID = [{"type": "bid", "group": 1, "rings": 4}, {"type": "end_bids"}]


@pytest.mark.parametrize("kind, opening", [("siam", None), ("tal", TAL_HIDDEN_BID)])
def test_the_bots_strong_pick_through_the_api_is_the_strong_players(
    client, token_of, kind, opening
):
    # A few playouts without a clock: the same decision every time. In Tal the first seat
    # has laid a tile face down: the bot searches positions with its value drawn afresh,
    # as the site's player does.
    game = running_game(kind, [UserFactory(), UserFactory()])
    rng = random.Random(2)
    for step in opening or [None] * 3:
        state = replay.state_as_read(game)
        seat = min(game.engine.active_seats(state))
        action = step or pick_random(game.engine.legal_actions(state, seat), rng)
        game = play.act(game.pk, game.seats.get(number=seat).user, action, game.version)
    state = replay.state_as_read(game)
    seat = min(game.engine.active_seats(state))
    user = game.seats.get(number=seat).user
    shown, salt, offered = through_the_api(client, token_of(user, "read"), game)
    picked = strategy("strong", seconds=None, playouts=30)(shown, salt)
    assert picked in offered
    budget = bots.Budget(seconds=None, playouts=30)
    assert picked == bots.choose(game.engine, state, seat, "strong", budget=budget, salt=salt)


def test_a_title_the_bot_cannot_rebuild_is_played_at_random(client, token_of, count_kind):
    game = running_game("count", [UserFactory(), UserFactory()])
    user = game.seats.get(number=0).user
    shown, salt, offered = through_the_api(client, token_of(user, "read"), game)
    assert strategy("greedy")(shown, salt) == strategy("random")(shown, salt)
    assert strategy("greedy")(shown, salt) in offered


def test_an_unknown_strength_is_refused():
    with pytest.raises(ValueError):
        strategy("cheating")
