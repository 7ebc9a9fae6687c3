"""King of Siam: a waiting player queues their next turn on the board; it is played the
moment the turn comes if every action in it is legal then, else dropped whole."""

import pytest

from games import planning, play, premoves
from games.models import Game, Move, Premove

from .conftest import plan_board, queue_first_choices, seat_of

pytestmark = pytest.mark.django_db

MAHARACHA = {"type": "play", "card": "maharacha"}
PASS = {"type": "pass"}


def moves(game):
    return list(game.moves.filter(undone=False).order_by("number").values_list("seat", "action"))


def test_the_planning_board_is_the_turn_as_it_begins_if_the_others_pass(siam):
    game, anna, ben = siam
    board = plan_board(game, ben)
    assert board.problem is None and not board.closed
    offered = [a["action"] for a in board.view["actions"]]
    assert MAHARACHA in offered and PASS in offered
    assert board.view["active_seats"] == [seat_of(game, ben)]


def test_a_whole_card_queued_is_played_when_the_turn_comes(siam):
    game, anna, ben = siam
    queued = queue_first_choices(game, ben, 5, first=MAHARACHA)
    assert queued[-1]["type"] == "take"  # the card's last step: the turn ends with it
    assert plan_board(game, ben).closed
    play.act(game.pk, anna, PASS, None)
    game.refresh_from_db()
    ben_seat = seat_of(game, ben)
    assert moves(game) == [(seat_of(game, anna), PASS)] + [(ben_seat, a) for a in queued]
    assert not Premove.objects.filter(game=game).exists()  # played once, then gone
    assert game.seats.get(user=anna).to_move  # Ben's turn is over: Anna's again


def test_a_queue_with_one_action_no_longer_legal_is_dropped_whole(siam, mailoutbox):
    game, anna, ben = siam
    queued = queue_first_choices(game, ben, 5, first=MAHARACHA)
    crowned = queued[3]["province"]  # Ben would crown this tile ...
    # ... but Anna plays the same Maharacha first and crowns it herself.
    for action in queued:
        play.act(game.pk, anna, action, None)
    game.refresh_from_db()
    assert all(seat == seat_of(game, anna) for seat, _ in moves(game))  # nothing of Ben's
    assert (
        game.engine.view(premoves_state(game), seat_of(game, ben))["seats"][seat_of(game, ben)][
            "cards_left"
        ]["maharacha"]
        == 1
    )  # his card is still in his hand
    # Ben is told why, and plays his turn by hand.
    row = Premove.objects.get(game=game, user=ben)
    assert row.dropped["key"] == "That tile cannot be chosen."
    assert game.seats.get(user=ben).to_move
    provinces = game.engine.view(premoves_state(game), None)["provinces"]
    assert next(p for p in provinces if p["id"] == crowned)["king"]


def premoves_state(game):
    from games import replay

    return replay.current_state(game)


def test_nothing_is_queued_on_ones_own_turn(siam):
    game, anna, ben = siam
    with pytest.raises(play.PlayError) as refused:
        planning.queue(game.pk, anna, PASS, None)
    assert refused.value.status == 409
    assert not Premove.objects.exists()


def test_an_action_the_board_does_not_offer_is_refused(siam):
    game, anna, ben = siam
    with pytest.raises(play.PlayError):
        planning.queue(
            game.pk, ben, {"type": "take", "province": "bangkok", "faction": "lao"}, None
        )
    with pytest.raises(play.PlayError):
        planning.queue(game.pk, ben, {"type": "nonsense"}, None)
    assert not Premove.objects.exists()


def test_queuing_changes_nothing_another_player_can_notice(siam):
    game, anna, ben = siam
    before = Game.objects.values("version", "move_count", "chat_count").get(pk=game.pk)
    queue_first_choices(game, ben, 2, first=MAHARACHA)
    assert Game.objects.values("version", "move_count", "chat_count").get(pk=game.pk) == before
    assert not Move.objects.filter(game=game).exists()


def test_planning_stops_while_the_player_before_is_half_way_through_a_card(siam):
    game, anna, ben = siam
    play.act(game.pk, anna, MAHARACHA, None)
    board = plan_board(game, ben)
    assert board.view is None and board.problem["key"].startswith("You can plan your next turn")
    with pytest.raises(play.PlayError):
        planning.queue(game.pk, ben, PASS, None)


def test_a_queue_kept_from_before_is_still_played_after_the_others_choices(siam):
    game, anna, ben = siam
    queue_first_choices(game, ben, 1, first=PASS)
    play.act(game.pk, anna, {"type": "play", "card": "rama"}, None)  # a different card
    game.refresh_from_db()
    assert premoves.queue_of(game, ben).actions  # waiting while Anna plays her card
    while premoves.queue_of(game, ben) is not None:  # Anna carries out her card
        state = premoves_state(game)
        play.act(game.pk, anna, game.engine.legal_actions(state, seat_of(game, anna))[0], None)
    game.refresh_from_db()
    assert moves(game)[-1] == (seat_of(game, ben), PASS)
    assert premoves.queue_of(game, ben) is None
