"""Taking back a turn after it was handed over: every person at the table agrees, one "no"
ends the request, a move by anyone voids it, and never across a reveal or a draw."""

import pytest
from django.core.management import call_command

from agreements import flows
from agreements.models import Request
from games import play, replay
from games.models import Game, Move, TurnTakeBack
from notify.models import Notification
from tests.factories import running_game

pytestmark = pytest.mark.django_db

PASS = {"type": "pass"}


@pytest.fixture
def three(users):
    """A running three-player King of Siam game; its players in turn order, named
    Anna, Ben and Cleo in that order (the seating is drawn)."""
    game = running_game("siam", users, {"map": "siam"}, title="Take-back test")
    first = game.seats.get(to_move=True).number
    order = [game.seats.get(number=(first + k) % 3).user for k in range(3)]
    for user, name in zip(order, ("Anna", "Ben", "Cleo"), strict=True):
        user.display_name = name
        user.save(update_fields=["display_name"])
    return game, order


def to_move(game):
    game.refresh_from_db()
    return game.seats.get(to_move=True).user


def play_whole_card(game, user):
    """The first card and the first choice at every step of it; the actions made."""
    made = []
    game.refresh_from_db()
    number = game.seats.get(user=user).number
    state = replay.current_state(game)
    action = next(a for a in game.engine.legal_actions(state, number) if a["type"] == "play")
    while True:
        play.act(game.pk, user, action, None)
        made.append(action)
        game.refresh_from_db()
        state = replay.current_state(game)
        if number not in game.engine.active_seats(state):
            return made
        action = game.engine.legal_actions(state, number)[0]


def test_everyone_agrees_and_the_whole_turn_is_taken_back(three, client):
    game, (anna, ben, cleo) = three
    assert to_move(game) == anna
    seat = game.seats.get(user=anna).number
    before = game.engine.view(replay.current_state(game), seat)
    made = play_whole_card(game, anna)
    assert to_move(game) == ben  # handed over
    request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    assert request.status == Request.Status.OPEN
    # The others are asked by mail; each may answer on the page.
    asked = Notification.objects.filter(kind=Notification.Kind.TAKE_BACK_ASKED)
    assert sorted(n.user.name for n in asked) == ["Ben", "Cleo"]
    flows.answer(game.pk, ben, request.pk, True)
    assert to_move(game) == ben  # Cleo has not agreed yet
    flows.answer(game.pk, cleo, request.pk, True)
    request.refresh_from_db()
    assert request.status == Request.Status.AGREED
    game.refresh_from_db()
    assert to_move(game) == anna and game.move_count == 0
    assert Move.objects.filter(game=game, undone=True).count() == len(made)
    after = game.engine.view(replay.current_state(game), seat)
    assert after["seats"] == before["seats"]  # her card is back in her hand
    # The history says so, to everyone; the replay check finds the log sound.
    assert TurnTakeBack.objects.get(game=game).moves == len(made)
    client.force_login(cleo)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Anna took back their last turn (after move 0), as every player agreed." in page
    call_command("check_replays")


def test_one_refusal_ends_the_request_and_nothing_changes(three):
    game, (anna, ben, cleo) = three
    play_whole_card(game, anna)
    game.refresh_from_db()
    count, version = game.move_count, game.version
    request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    flows.answer(game.pk, ben, request.pk, True)
    flows.answer(game.pk, cleo, request.pk, False)
    request.refresh_from_db()
    assert request.status == Request.Status.REFUSED and request.refused_by == cleo
    game.refresh_from_db()
    assert game.move_count == count and to_move(game) == ben
    assert not Move.objects.filter(game=game, undone=True).exists()
    assert game.version > version  # the pages show the answer
    # Nobody can agree to it any more; Anna may ask again.
    with pytest.raises(play.PlayError):
        flows.answer(game.pk, ben, request.pk, True)
    assert flows.ask(game.pk, anna, Request.Kind.TAKE_BACK).status == Request.Status.OPEN


def test_a_move_before_everyone_agreed_voids_the_request(three):
    game, (anna, ben, cleo) = three
    play.act(game.pk, anna, PASS, None)
    request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    flows.answer(game.pk, cleo, request.pk, True)
    play.act(game.pk, ben, PASS, None)  # Ben plays on instead of answering
    with pytest.raises(play.PlayError, match="moved on"):
        flows.answer(game.pk, ben, request.pk, True)
    assert not Move.objects.filter(game=game, undone=True).exists()
    # The next request closes it as lapsed.
    flows.ask(game.pk, ben, Request.Kind.TAKE_BACK)
    request.refresh_from_db()
    assert request.status == Request.Status.LAPSED


def test_only_the_player_who_moved_last_may_ask_and_one_request_at_a_time(three):
    game, (anna, ben, cleo) = three
    play.act(game.pk, anna, PASS, None)
    with pytest.raises(play.PlayError, match="did not make the last move"):
        flows.ask(game.pk, cleo, Request.Kind.TAKE_BACK)
    with pytest.raises(play.PlayError):
        flows.ask(game.pk, ben, Request.Kind.TAKE_BACK)  # his turn: nothing handed over
    flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    with pytest.raises(play.PlayError, match="one at a time"):
        flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)


def test_computer_players_agree_unless_they_already_moved(users):
    from games import registry

    anna = users[0]
    game = play.create_game(
        anna,
        registry.get("siam"),
        title="With computers",
        players=3,
        options={"map": "siam"},
        time_limit_days=3,
        private=False,
        computer_players=["random", "random"],
    )

    def computer_moves():
        # A computer's move waits for the commit, which a test's transaction never makes:
        # the test makes it, as the computer's task would.
        while (mover := to_move(game)).is_bot:
            state = replay.current_state(game)
            number = game.seats.get(user=mover).number
            play.act(game.pk, mover, game.engine.legal_actions(state, number)[-1], None)

    computer_moves()
    play.act(game.pk, anna, PASS, None)
    request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    assert request.status == Request.Status.AGREED  # nobody else has a say
    assert to_move(game) == anna
    play.act(game.pk, anna, PASS, None)
    play.act(game.pk, to_move(game), PASS, None)  # a computer moved since
    with pytest.raises(play.PlayError):
        flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)


def test_the_forms_on_the_page(three, client):
    game, (anna, ben, cleo) = three
    play.act(game.pk, anna, PASS, None)
    client.force_login(anna)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Ask to take back my last turn" in page
    response = client.post(
        f"/g/{game.pk}/agree/ask", {"kind": "take_back"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "You ask the players' agreement to take back your last turn" in (
        response.content.decode()
    )
    client.force_login(ben)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Anna asks the players' agreement" in page
    assert "Yes, Anna may take back their last turn" in page and "No, the turn stands" in page
    request = Request.objects.get()
    assert (
        client.post(
            f"/g/{game.pk}/agree/answer", {"request": request.pk, "answer": "maybe"}
        ).status_code
        == 400
    )
    client.post(f"/g/{game.pk}/agree/answer", {"request": request.pk, "answer": "no"})
    request.refresh_from_db()
    assert request.status == Request.Status.REFUSED
    client.force_login(anna)
    assert "Ben said no to the last request." in client.get(f"/g/{game.pk}/").content.decode()
    assert Game.objects.get(pk=game.pk).move_count == 1


def test_the_askers_queue_for_the_turn_after_goes_with_the_turn_taken_back(three):
    from games import planning
    from games.models import Premove

    game, (anna, ben, cleo) = three
    play.act(game.pk, anna, PASS, None)
    planning.queue(game.pk, anna, PASS, None)  # for her next turn, after Ben's and Cleo's
    request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    flows.answer(game.pk, ben, request.pk, True)
    flows.answer(game.pk, cleo, request.pk, True)
    assert to_move(game) == anna
    assert not Premove.objects.filter(user=anna).exists()


def test_a_page_drawn_from_a_game_read_before_a_move_offers_no_take_back(three):
    """The panel reads the game without its lock: a move made meanwhile is in the log but
    not in the row it read. The turn is not the last one any more, and nothing fails."""
    from games import takeback

    game, (anna, ben, cleo) = three
    play.act(game.pk, anna, PASS, None)
    read_before = Game.objects.get(pk=game.pk)
    play.act(game.pk, ben, PASS, None)
    with pytest.raises(play.PlayError):
        takeback.last_turn(read_before, read_before.seats.get(user=ben).number)
