"""Substitutes: a late player's seat opens, the clock stops, a newcomer plays on in that seat."""

from datetime import timedelta

import pytest
import time_machine

from community.models import PlayerStats
from games import deadlines, play, replay
from games.models import Game, Seat
from games.pages import board_page
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def opened(count_kind):
    """A game whose seat 1 ran out of time under the substitute policy."""
    users = [UserFactory(username="first"), UserFactory(username="late")]
    game = play.create_game(
        users[0],
        count_kind,
        title="Needs a sub",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
        timeout_policy=Game.TimeoutPolicy.SUBSTITUTE,
    )
    play.join(game.pk, users[1])
    game.refresh_from_db()
    stay = game.seats.get(number=0).user
    late = game.seats.get(number=1).user
    play.act(game.pk, stay, {"type": "add", "n": 2}, None)
    play.act(game.pk, stay, {"type": "end"}, None)
    game.refresh_from_db()
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "opened"
        assert deadlines.sweep()["timed_out"] == 0
    game.refresh_from_db()
    return game, stay, late


def test_the_late_seat_opens_and_the_clock_stops(opened):
    game, stay, late = opened
    assert game.status == Game.Status.ACTIVE
    assert game.open_seats == [1]
    assert game.deadline is None and game.paused_remaining == timedelta(days=3)
    assert game.seat_of(late) is None
    # The stopped clock stays stopped: no sweep restarts it or times anyone out.
    with time_machine.travel(game.paused_remaining * 10 + game.started_at, tick=False):
        assert play.sync_clock(game.pk) is None
        assert deadlines.sweep() == {
            k: 0
            for k in ("unpaused", "paused", "resumed", "timed_out", "lost", "aborted", "failed")
        }
    with pytest.raises(play.NotAPlayer):
        play.act(game.pk, late, {"type": "add", "n": 1}, None)
    # For the player who left, the game is lost on time.
    row = PlayerStats.objects.get(user=late)
    assert (row.played, row.won, row.timeouts) == (1, 0, 1)


def test_the_lobby_lists_it_and_a_newcomer_takes_the_seat(client, opened):
    game, stay, late = opened
    lobby = client.get("/").content.decode()
    assert "Looking for a substitute" in lobby and "Needs a sub" in lobby
    sub = UserFactory(username="sub")
    client.force_login(sub)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Take over the open seat" in page
    assert "The clock is stopped until a substitute takes the open seat." in page
    assert client.post(f"/g/{game.pk}/take-seat", {}).status_code == 302
    game.refresh_from_db()
    seat = game.seats.get(user=sub)
    assert seat.number == 1 and seat.to_move
    assert game.open_seats == [] and game.deadline is not None
    assert "Looking for a substitute" not in client.get("/").content.decode()
    # The history is there, and the seat's own secret with it; the other seat's is not.
    state = replay.current_state(game)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Take over the open seat" not in page and "until a substitute" not in page
    assert "adds 2" in page
    view = board_page(game, sub).view
    assert view["my_secret"] == state.secrets[1]
    assert str(state.secrets[0]) not in str(view) and str(state.secrets[0]) not in page
    # Play goes on in the seat.
    play.act(game.pk, sub, {"type": "add", "n": 1}, None)
    game.refresh_from_db()
    assert game.move_count == 3


def test_nobody_else_can_take_a_filled_seat_or_a_seat_twice(opened):
    game, stay, late = opened
    with pytest.raises(play.PlayError, match="already playing"):
        play.take_seat(game.pk, stay)
    play.take_seat(game.pk, UserFactory())
    with pytest.raises(play.PlayError, match="No seat"):
        play.take_seat(game.pk, UserFactory())


def test_the_substitute_is_rated_for_the_end_of_the_game(opened):
    game, stay, late = opened
    sub = UserFactory()
    play.take_seat(game.pk, sub)
    play.resign(game.pk, sub)
    assert PlayerStats.objects.get(user=sub).rated_games == 1
    assert PlayerStats.objects.get(user=late).rated_games == 0


def test_when_everyone_is_late_the_game_is_aborted_instead(count_kind):
    from tests.games.clock import new_game

    game = new_game(
        count_kind,
        [UserFactory(), UserFactory()],
        timeout_policy=Game.TimeoutPolicy.SUBSTITUTE,
    )
    # The other seat is open already: opening the late one too would leave nobody.
    late = game.seats.get(to_move=True)
    game.seats.exclude(pk=late.pk).delete()
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "aborted"


def test_the_player_who_ran_out_of_time_cannot_take_the_open_seat_back(client, opened):
    """Else a player could let the clock run out again and again, each time for a full
    new one. They are told by e-mail, and still see the game they played."""
    from django.core import mail

    from notify import delivery

    game, stay, late = opened
    client.force_login(late)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "You ran out of time in this game: its seats are for others." in page
    assert "Take over the open seat" not in page
    with pytest.raises(play.PlayError, match="its seats are for others"):
        play.take_seat(game.pk, late)
    assert game.open_seats == [1]
    with time_machine.travel(game.started_at + timedelta(days=30), tick=False):
        delivery.drain()  # the time-out was in the future
    [told] = [m for m in mail.outbox if m.to == [late.email] and "ran out" in m.subject]
    assert told.subject == "Your time ran out in “Needs a sub”"
    assert "counts as lost for you" in told.body and game.get_absolute_url() in told.body
    # Anyone else may take the seat.
    play.take_seat(game.pk, UserFactory())
    game.refresh_from_db()
    assert game.open_seats == []


def test_a_private_game_stays_visible_to_the_player_who_ran_out_of_time(client, count_kind):
    first, late, nosy = UserFactory(), UserFactory(), UserFactory()
    game = play.create_game(
        first, count_kind, title="Closed", players=2, options={}, time_limit_days=3,
        private=True, timeout_policy=Game.TimeoutPolicy.SUBSTITUTE,
    )  # fmt: skip
    play.join(game.pk, late)
    game.refresh_from_db()
    if game.seats.get(user=late).to_move is False:
        mover = game.seats.get(to_move=True).user
        play.act(game.pk, mover, {"type": "add", "n": 1}, None)
        play.act(game.pk, mover, {"type": "end"}, None)
        game.refresh_from_db()
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "opened"
    client.force_login(late)
    assert client.get(game.get_absolute_url()).status_code == 200
    client.force_login(nosy)
    assert client.get(game.get_absolute_url()).status_code == 404


def test_the_game_stays_in_the_lists_of_the_player_who_left_it(client, opened):
    """The seat they left is kept (vacated): for them the game ended when they left, lost
    on time. It is in their finished games, not their running ones, nowhere as a seat
    they hold, and once the game is over in their archive and on their profile."""
    from community import rematch
    from games import lists

    game, stay, late = opened
    client.force_login(late)
    running, finished = lists.my_seats(late)
    assert running == [] and [seat.game for seat in finished] == [game]
    page = client.get("/my/").content.decode()
    finished_part = page.split('id="finished-h"')[1]
    assert "Needs a sub" in finished_part and "ran out of time" in finished_part
    assert "Needs a sub" not in page.split('id="finished-h"')[0]
    assert game.seat_of(late) is None and list(game.seats.all()) == [game.seat_of(stay)]
    # Still running: not in the archive yet.
    assert "Needs a sub" not in client.get("/archive/?mine=1").content.decode()

    sub = UserFactory(username="sub")
    play.take_seat(game.pk, sub)
    play.resign(game.pk, sub)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [seat.user for seat in game.seats.all()] == [stay, sub]
    mine = client.get("/archive/?mine=1").content.decode()
    assert "Needs a sub" in mine and "ran out of time" in mine
    assert "Needs a sub" in client.get(f"/u/{late.username}/").content.decode()
    client.force_login(sub)
    assert "Needs a sub" in client.get("/archive/?mine=1").content.decode()
    # A rematch is for those who played to the end: not offered to the one who left,
    # and not counted in their menu's badge.
    rematch.answer(game.pk, stay, True)
    assert rematch.offers_for(late).count() == 0 and lists.waiting_count(late) == 0
    assert rematch.offers_for(sub).count() == 1 and lists.waiting_count(sub) == 1


def test_moderators_see_who_left_a_seat_to_a_substitute(client, opened):
    from tests.moderation.admin_helpers import moderator

    game, stay, late = opened
    left_link = f"/admin/games/seat/{Seat.every.get(game=game, user=late).pk}/change/"
    held_link = f"/admin/games/seat/{game.seats.get(user=stay).pk}/change/"
    client.force_login(moderator())
    left = client.get("/admin/games/seat/?vacated__exact=1").content.decode()
    assert left_link in left and held_link not in left
    held = client.get("/admin/games/seat/?vacated__exact=0").content.decode()
    assert held_link in held and left_link not in held
    assert client.get(left_link).status_code == 200
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert page.count('<td class="field-vacated">') == 2
