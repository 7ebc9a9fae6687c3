"""Tal der Könige: premoves in the sequential phases; the plans, written by everyone at
once and revealed together, are planned on their own turn only."""

import pytest

from games import planning, play, premoves, replay
from games.models import Premove
from tests.factories import running_game
from tests.tal_web.conftest import play_to

from .conftest import plan_board

pytestmark = pytest.mark.django_db


@pytest.fixture
def tal(users):
    return running_game("tal", users[:2], title="Tal premoves")


def roles(game):
    """(the player to move, the one waiting) of a sequential phase."""
    state = replay.current_state(game)
    mover = game.seats.get(number=state.current).user
    return mover, game.seats.exclude(user=mover).get().user


def test_a_worker_move_queued_is_played_when_the_turn_comes(tal):
    play_to(tal, "worker")
    mover, waiting = roles(tal)
    board = plan_board(tal, waiting)
    move = next(a["action"] for a in board.view["actions"] if a["action"]["type"] == "move")
    planning.queue(tal.pk, waiting, move, None)
    planning.queue(tal.pk, waiting, {"type": "end_moves"}, None)
    play.act(tal.pk, mover, {"type": "end_moves"}, None)
    tal.refresh_from_db()
    seat = tal.seats.get(user=waiting).number
    played = list(tal.moves.order_by("-number").values_list("seat", "action")[:2])
    assert played == [(seat, {"type": "end_moves"}), (seat, move)]
    assert not Premove.objects.exists()


def test_a_queued_move_to_a_field_taken_meanwhile_is_dropped_whole(tal):
    play_to(tal, "worker")
    mover, waiting = roles(tal)
    state = replay.current_state(tal)
    mover_seat = tal.seats.get(user=mover).number
    theirs = {
        a["to"]: a for a in tal.engine.legal_actions(state, mover_seat) if a["type"] == "move"
    }
    board = plan_board(tal, waiting)
    mine = next(
        a["action"]
        for a in board.view["actions"]
        if a["action"]["type"] == "move"
        and "-" in a["action"]["to"]
        and a["action"]["to"] in theirs
    )
    planning.queue(tal.pk, waiting, mine, None)
    planning.queue(tal.pk, waiting, {"type": "end_moves"}, None)
    before = tal.moves.count()
    play.act(tal.pk, mover, theirs[mine["to"]], None)  # the other worker gets there first
    play.act(tal.pk, mover, {"type": "end_moves"}, None)
    tal.refresh_from_db()
    assert tal.moves.count() == before + 2  # nothing of the queue, not even its end_moves
    row = Premove.objects.get(user=waiting)
    assert row.dropped is not None
    assert tal.seats.get(user=waiting).to_move


def test_secret_bids_may_be_queued_while_the_player_before_bids(tal):
    mover, waiting = roles(tal)
    board = plan_board(tal, waiting)
    bid = next(a["action"] for a in board.view["actions"] if a["action"]["type"] == "bid")
    planning.queue(tal.pk, waiting, bid, None)
    play.act(tal.pk, mover, {"type": "end_bids"}, None)
    tal.refresh_from_db()
    seat = tal.seats.get(user=waiting).number
    assert tal.moves.order_by("-number").values_list("seat", "action").first() == (seat, bid)
    # The bid is a move now, shown to the other player as bids are: without its rings.
    view = tal.engine.view(replay.current_state(tal), tal.seats.get(user=mover).number)
    laid = [b for g in view["market"]["groups"] for b in g["bids"] if b["player"] == seat]
    assert laid and all(b.get("rings") is None for b in laid)


def test_nothing_is_planned_past_the_reveal_of_the_auction_or_the_plans(tal):
    mover, waiting = roles(tal)
    play.act(tal.pk, mover, {"type": "end_bids"}, None)
    # Now the waiting player bids last: the other's next turn lies past the reveal.
    board = plan_board(tal, mover)
    assert board.view is None and "revealed" in board.problem["key"]
    state = play_to(tal, "plan")
    tal.refresh_from_db()
    assert tal.engine.active_seats(state) == {0, 1}  # everyone writes their plan at once
    for user in (mover, waiting):
        assert plan_board(tal, user).problem["key"].startswith("It is your turn")
    with pytest.raises(play.PlayError):
        planning.queue(tal.pk, mover, {"type": "submit_plan"}, None)
    assert premoves.queue_of(tal, mover) is None
