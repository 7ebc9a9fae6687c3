"""Tal der Könige: a turn is taken back by agreement only if nothing in it was revealed
or drawn (the engine says which: ``reveals``)."""

import pytest

from agreements import flows
from agreements.models import Request
from games import play, replay
from tests.factories import running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tal(users):
    game = running_game("tal", users[:2], title="Tal take-back")
    state = replay.current_state(game)
    first = state.current
    players = [game.seats.get(number=(first + k) % 2).user for k in range(2)]
    return game, players


def bid_and_end(game, user):
    game.refresh_from_db()
    seat = game.seats.get(user=user).number
    state = replay.current_state(game)
    bid = next(a for a in game.engine.legal_actions(state, seat) if a["type"] == "bid")
    play.act(game.pk, user, bid, None)
    play.act(game.pk, user, {"type": "end_bids"}, None)


def test_bids_handed_over_may_be_taken_back_but_not_the_ones_that_revealed_the_auction(tal):
    game, (first, second) = tal
    bid_and_end(game, first)
    request = flows.ask(game.pk, first, Request.Kind.TAKE_BACK)
    flows.answer(game.pk, second, request.pk, True)
    game.refresh_from_db()
    assert game.move_count == 0 and game.seats.get(user=first).to_move
    bid_and_end(game, first)
    bid_and_end(game, second)  # the last bids: the auction is revealed
    state = replay.current_state(game)
    assert state.auction_revealed
    with pytest.raises(play.PlayError, match="revealed hidden information"):
        flows.ask(game.pk, second, Request.Kind.TAKE_BACK)
