"""Computer players on the site: practice games from the create form, the
"computer player" mark in every list, and a computer standing in for a late player."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from botplay.accounts import bot_user, strength_of
from botplay.tasks import play_turn
from community.models import ScoredGame
from games import deadlines, play, registry, replay
from games.forms import NewGameForm
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="version" value="(v[0-9a-f]+)"')


@pytest.fixture
def hanna(db):
    return UserFactory(username="hanna", display_name="Hanna")


def _create_form(kind: str, players: int, **fields) -> dict:
    form = NewGameForm(registry.get(kind).engine)
    data = {
        name: field.initial
        for name, field in form.fields.items()
        if field.initial not in (None, False, "")
    }
    data.update(title="Practice", players=players, **fields)
    return data


def _create(client, kind, players, callbacks, **fields):
    with callbacks(execute=True):
        response = client.post(
            reverse("new_game", args=[kind]), _create_form(kind, players, **fields)
        )
    assert response.status_code == 302
    return Game.objects.get(pk=int(response["Location"].strip("/").rsplit("/", 1)[-1]))


def _token(client, game) -> str:
    return TOKEN.search(client.get(game.get_absolute_url() + "?text=1").content.decode()).group(1)


# -- the create form --------------------------------------------------------------


def test_the_create_form_offers_computer_players_per_seat(client, hanna):
    client.force_login(hanna)
    page = client.get(reverse("new_game", args=["tal"])).content.decode()
    for seat in (2, 3, 4):
        assert f'name="computer_{seat}"' in page
    assert "a computer player: hard" in page
    assert "a computer player takes over (the player can reclaim the seat)" in page


@pytest.mark.parametrize(("kind", "options"), [("siam", {"option_map": "saba"}), ("tal", {})])
def test_a_newcomer_plays_a_practice_game_against_two_computers_to_the_end(
    client, hanna, kind, options, django_capture_on_commit_callbacks
):
    client.force_login(hanna)
    game = _create(
        client,
        kind,
        3,
        django_capture_on_commit_callbacks,
        computer_2="random",
        computer_3="greedy",
        **options,
    )
    # Every seat was filled: the game started at once, and it is nobody's rating.
    assert game.status == Game.Status.ACTIVE
    bots = [seat.user for seat in game.seats.exclude(user=hanna)]
    assert sorted(strength_of(bot) for bot in bots) == ["greedy", "random"]
    assert game.computer_played
    mine = game.seat_of(hanna).number
    act_url = reverse("game_act", args=[game.pk])
    human_moves = 0
    rng = random.Random(1)
    for _ in range(1500):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = replay.current_state(game)
        # Whenever the human may act, the computers have made their moves already.
        assert game.engine.active_seats(state) == {mine}
        action = rng.choice(game.engine.legal_actions(state, mine))
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(
                act_url, {"action": json.dumps(action), "version": _token(client, game)}
            )
        assert answer.status_code == 302
        human_moves += 1
    assert game.status == Game.Status.FINISHED
    for bot in bots:
        assert game.moves.filter(seat=game.seat_of(bot).number).exists()
    assert human_moves > 0
    assert not ScoredGame.objects.get(game=game).rated


def test_the_computer_replies_after_the_human_move(
    client, hanna, django_capture_on_commit_callbacks
):
    client.force_login(hanna)
    game = _create(client, "siam", 2, django_capture_on_commit_callbacks, computer_2="greedy")
    bot_seat = game.seats.exclude(user=hanna).get()
    assert strength_of(bot_seat.user) == "greedy"
    mine = game.seat_of(hanna).number
    state = replay.current_state(game)
    assert game.engine.active_seats(state) == {mine}
    before = game.moves.filter(seat=bot_seat.number).count()
    rng = random.Random(2)
    while game.engine.active_seats(state) == {mine}:
        with django_capture_on_commit_callbacks(execute=True):
            play.act(game.pk, hanna, rng.choice(game.engine.legal_actions(state, mine)), None)
        game.refresh_from_db()
        state = replay.current_state(game)
        if game.status != Game.Status.ACTIVE:
            break
    assert game.moves.filter(seat=bot_seat.number).count() > before


def test_a_broker_outage_never_fails_the_move_that_gives_a_computer_its_turn(
    client, hanna, django_capture_on_commit_callbacks, monkeypatch
):
    from kombu.exceptions import OperationalError

    client.force_login(hanna)
    game = _create(client, "siam", 2, django_capture_on_commit_callbacks, computer_2="greedy")
    mine = game.seat_of(hanna).number
    monkeypatch.setitem(play_turn.app.conf, "task_always_eager", False)

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(play_turn, "delay", broker_down)
    state = replay.current_state(game)
    rng = random.Random(2)
    moves = game.moves.count()
    while game.engine.active_seats(state) == {mine}:
        with django_capture_on_commit_callbacks(execute=True):
            play.act(game.pk, hanna, rng.choice(game.engine.legal_actions(state, mine)), None)
        game.refresh_from_db()
        state = replay.current_state(game)
    # the turn passed to the computer, whose move waits for the sweep
    assert game.moves.count() > moves
    assert game.engine.active_seats(state) == {1 - mine}
    assert game.seats.get(number=1 - mine).to_move


def test_two_hard_computers_are_two_accounts(client, hanna, django_capture_on_commit_callbacks):
    client.force_login(hanna)
    game = _create(
        client,
        "tal",
        4,
        django_capture_on_commit_callbacks,
        computer_2="strong",
        computer_3="strong",
        computer_4="random",
    )
    bots = [seat.user for seat in game.seats.exclude(user=hanna)]
    assert len({bot.pk for bot in bots}) == 3
    assert sorted(strength_of(bot) for bot in bots) == ["random", "strong", "strong"]
    names = sorted(bot.name for bot in bots)
    assert names == ["Computer (easy)", "Computer (hard)", "Computer (hard) 2"]
    assert bot_user("strong", 2) in bots


def test_seats_beyond_the_player_count_are_ignored_and_open_seats_wait(
    client, hanna, django_capture_on_commit_callbacks
):
    client.force_login(hanna)
    game = _create(
        client,
        "siam",
        3,
        django_capture_on_commit_callbacks,
        computer_2="greedy",
        computer_4="strong",
    )
    # Seat 3 is left for a person: the game waits; seat 4 does not exist in a 3-player game.
    assert game.status == Game.Status.OPEN
    assert [strength_of(s.user) for s in game.seats.filter(user__is_bot=True)] == ["greedy"]
    assert game.seats.count() == 2
    otto = UserFactory(username="otto")
    with django_capture_on_commit_callbacks(execute=True):
        play.join(game.pk, otto)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_game_with_a_computer_cannot_be_all_computers(hanna):
    with pytest.raises(play.PlayError):
        play.create_game(
            hanna,
            registry.get("siam"),
            title="x",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
            computer_players=["random", "random"],
        )
    with pytest.raises(play.PlayError):
        play.create_game(
            hanna,
            registry.get("siam"),
            title="x",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
            computer_players=["cheating"],
        )


# -- the "computer player" mark ---------------------------------------------------


BADGE = '<small class="computer-badge">computer player</small>'


def test_computers_are_marked_in_every_list(client, hanna, django_capture_on_commit_callbacks):
    client.force_login(hanna)
    waiting = _create(client, "siam", 3, django_capture_on_commit_callbacks, computer_2="random")
    running = _create(client, "siam", 2, django_capture_on_commit_callbacks, computer_2="greedy")
    bot = running.seats.get(user__is_bot=True).user
    # A person's name is never marked.
    hanna_listed = re.compile(r"Hanna(?!\s*<small class=\"computer-badge\">)")

    lobby = client.get(reverse("home")).content.decode()
    assert waiting.title in lobby and f"Computer (easy) {BADGE}" in lobby
    mine = client.get(reverse("my_games")).content.decode()
    assert f"Computer (medium) {BADGE}" in mine and hanna_listed.search(mine)
    page = client.get(running.get_absolute_url()).content.decode()
    assert BADGE in page
    profile = client.get(reverse("profile", args=[bot.username])).content.decode()
    assert f"<h1>Computer (medium) {BADGE}</h1>" in profile
    # Her own profile lists her games with their computer players, but she is no computer.
    own = client.get(reverse("profile", args=["hanna"])).content.decode()
    heading = own.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert heading.startswith("Hanna") and BADGE not in heading  # (she is online: a dot)

    play.resign(running.pk, hanna)
    result = client.get(running.get_absolute_url()).content.decode()
    assert f'<ol class="ranking"><li value="1">Computer (medium) {BADGE}</li>' in result
    archive = client.get(reverse("archive")).content.decode()
    assert f"Computer (medium) {BADGE}" in archive
    finished = client.get(reverse("my_games")).content.decode()
    assert finished.count(BADGE) >= 2  # the waiting game and the finished one


def test_the_mark_and_the_names_are_translated(client, hanna, django_capture_on_commit_callbacks):
    client.force_login(hanna)
    game = _create(client, "siam", 2, django_capture_on_commit_callbacks, computer_2="strong")
    page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<small class="computer-badge">Computerspieler</small>' in page
    assert "Computer (schwer)" in page


# -- standing in for a late player ------------------------------------------------


@pytest.fixture
def stood_in(hanna, django_capture_on_commit_callbacks):
    """A private two-player game in which Otto ran out of time under the stand-in policy."""
    otto = UserFactory(username="otto", display_name="Otto")
    game = play.create_game(
        hanna,
        registry.get("siam"),
        title="Stand-in",
        players=2,
        options={},
        time_limit_days=3,
        private=True,
        timeout_policy=Game.TimeoutPolicy.STAND_IN,
    )
    with django_capture_on_commit_callbacks(execute=True):
        play.join(game.pk, otto)
    game.refresh_from_db()
    late = game.seats.get(to_move=True).user
    stays = hanna if late == otto else otto
    with (
        time_machine.travel(game.deadline + timedelta(minutes=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert deadlines.sweep()["timed_out"] == 1
    game.refresh_from_db()
    return game, late, stays


def test_a_computer_takes_the_late_seat_and_plays_on(stood_in):
    game, late, stays = stood_in
    assert game.status == Game.Status.ACTIVE
    seat = game.seats.get(stood_in_for=late)
    assert seat.user.is_bot and strength_of(seat.user) == "greedy"
    assert game.seat_of(late) is None and game.computer_played
    # The computer moved at once, so it is the other player's turn with a fresh clock.
    assert game.moves.filter(seat=seat.number).exists()
    assert game.seats.get(to_move=True).user == stays
    assert game.deadline > game.started_at + timedelta(days=3)


def test_the_late_player_still_sees_the_private_game_and_reclaims_the_seat(
    client, stood_in, django_capture_on_commit_callbacks
):
    game, late, stays = stood_in
    client.force_login(late)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert "a computer player took over your seat" in text and "Take my seat back" in text
    assert f"standing in for {late.name}" in text
    listed = client.get(reverse("my_games")).content.decode()
    assert game.title in listed and "A computer player holds your seat" in listed
    # Someone else still cannot see the private game.
    client.force_login(UserFactory(username="nosy"))
    assert client.get(game.get_absolute_url()).status_code == 404
    assert client.post(reverse("game_reclaim_seat", args=[game.pk])).status_code == 404

    client.force_login(late)
    bot_seat = game.seats.get(stood_in_for=late)
    bot = bot_seat.user
    answer = client.post(reverse("game_reclaim_seat", args=[game.pk]))
    assert answer.status_code == 302
    bot_seat.refresh_from_db()
    assert bot_seat.user == late and bot_seat.stood_in_for is None
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Take my seat back" not in page
    # The computer is out: a task for that seat does nothing now.
    moves = game.moves.count()
    assert play_turn(game.pk, bot_seat.number) == 0
    with pytest.raises(play.NotAPlayer):
        play.act(game.pk, bot, {"type": "pass"}, None)
    # And the player plays on from their seat when their turn comes.
    state = replay.current_state(game)
    other = game.seat_of(stays).number
    with django_capture_on_commit_callbacks(execute=True):
        play.act(game.pk, stays, game.engine.legal_actions(state, other)[0], None)
    game.refresh_from_db()
    assert game.moves.count() == moves + 1 or game.seats.get(number=other).to_move
    assert not game.moves.filter(number__gt=moves + 1, seat=bot_seat.number).exists()
    # A second reclaim has nothing to take back.
    with pytest.raises(play.PlayError):
        play.reclaim_seat(game.pk, late)


def test_a_reclaimed_game_is_not_rated(stood_in):
    game, late, stays = stood_in
    play.reclaim_seat(game.pk, late)
    play.resign(game.pk, stays)
    assert not ScoredGame.objects.get(game=game).rated


def test_a_game_that_ends_with_a_computer_in_the_late_players_seat_is_their_loss_on_time(
    client, stood_in, django_capture_on_commit_callbacks
):
    """Whatever the computer made of the seat, the player who ran out of time did not
    win: their record counts a time-out, "My games" says so, and they hear of the end."""
    from community.models import PlayerStats, SeatRecord
    from notify.models import Notification

    game, late, stays = stood_in
    with django_capture_on_commit_callbacks(execute=True):
        play.resign(game.pk, stays)  # the computer's seat wins
    game.refresh_from_db()
    bot_seat = game.seats.get(stood_in_for=late)
    assert game.result["winners"] == [bot_seat.number]
    record = SeatRecord.objects.get(game=game, user=late)
    assert record.timed_out and not record.won
    assert PlayerStats.objects.get(user=late, kind=game.kind).timeouts == 1
    client.force_login(late)
    mine = client.get(reverse("my_games")).content.decode()
    row = mine.split("finished-games", 1)[1].split(game.title, 1)[1].split("</tr>", 1)[0]
    assert "ran out of time" in row and "won" not in row
    assert Notification.objects.filter(
        kind=Notification.Kind.GAME_FINISHED, user=late, game=game
    ).exists()


def test_a_rematch_asks_the_player_a_computer_stood_in_for(
    client, stood_in, django_capture_on_commit_callbacks
):
    from community import rematch

    game, late, stays = stood_in
    play.resign(game.pk, stays)
    offer = rematch.answer(game.pk, stays, True)
    assert offer.new_game is None  # the late player has not answered yet
    client.force_login(late)
    assert "Accept the rematch" in client.get(game.get_absolute_url()).content.decode()
    assert game.title in client.get(reverse("my_games")).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        offer = rematch.answer(game.pk, late, True)
    players = {seat.user for seat in offer.new_game.seats.all()}
    assert players == {late, stays}  # the same people, no computer


def test_when_the_last_person_times_out_too_the_game_is_aborted(stood_in):
    game, late, stays = stood_in
    # The person times out in turn: their seat gets a computer too, but then no
    # person would be left playing: the game is aborted instead.
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "aborted"
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_a_practice_game_whose_only_person_times_out_is_aborted(
    hanna, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play.create_game(
            hanna,
            registry.get("siam"),
            title="Practice",
            players=3,
            options={},
            time_limit_days=3,
            private=False,
            timeout_policy=Game.TimeoutPolicy.STAND_IN,
            computer_players=["random", "random"],
        )
    game.refresh_from_db()
    assert game.seat_of(hanna).to_move
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "aborted"


def test_the_late_player_is_told_by_e_mail_until_they_take_the_seat_back(stood_in):
    from django.utils import timezone

    from notify.compose import compose
    from notify.models import Notification
    from notify.outbox import Skip

    game, late, stays = stood_in
    row = Notification.objects.get(kind=Notification.Kind.STOOD_IN)
    assert row.user == late and row.game == game
    message, _ = compose(row, timezone.now())
    assert message.to == [late.email]
    assert "A computer player took your seat in “Stand-in”" in message.subject
    assert "take your seat back" in message.body and game.get_absolute_url() in message.body
    # Nobody else hears of it, and once the seat is taken back there is nothing to tell.
    assert not Notification.objects.filter(kind=Notification.Kind.STOOD_IN, user=stays).exists()
    play.reclaim_seat(game.pk, late)
    with pytest.raises(Skip):
        compose(row, timezone.now())


def test_a_computer_whose_task_was_lost_gets_a_new_clock_and_moves(
    hanna, django_capture_on_commit_callbacks
):
    otto = UserFactory(username="otto")
    game = play.create_game(
        hanna,
        registry.get("siam"),
        title="Lost task",
        players=3,
        options={},
        time_limit_days=3,
        private=False,
        timeout_policy=Game.TimeoutPolicy.STAND_IN,
        computer_players=["random"],
    )
    play.join(game.pk, otto)  # no on_commit callbacks run here: every bot task is lost
    game.refresh_from_db()
    bot_seat = game.seats.get(user__is_bot=True)
    rng = random.Random(4)
    while not game.seats.get(pk=bot_seat.pk).to_move:
        state = replay.current_state(game)
        (number,) = game.engine.active_seats(state)
        user = game.seats.get(number=number).user
        play.act(game.pk, user, rng.choice(game.engine.legal_actions(state, number)), None)
        game.refresh_from_db()
    moves = game.move_count
    with (
        time_machine.travel(game.deadline + timedelta(minutes=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert play.time_out(game.pk, game.deadline) == "stood_in"
    game.refresh_from_db()
    # Nobody lost a seat; the computer got its turn again and played it.
    assert not game.seats.filter(stood_in_for__isnull=False).exists()
    assert game.status == Game.Status.ACTIVE and game.move_count > moves
    assert game.moves.filter(number__gt=moves, seat=bot_seat.number).exists()


def test_the_people_alone_can_cancel_a_game_with_a_computer(hanna):
    from community import cancel

    otto = UserFactory(username="otto")
    game = play.create_game(
        hanna,
        registry.get("siam"),
        title="Cancel",
        players=3,
        options={},
        time_limit_days=3,
        private=False,
        computer_players=["random"],
    )
    play.join(game.pk, otto)
    assert cancel.vote(game.pk, hanna, True) == "agreed"
    assert cancel.vote(game.pk, otto, True) == "cancelled"
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_back_in_the_seat_the_player_sees_what_the_computer_did(
    client, hanna, django_capture_on_commit_callbacks
):
    from games.pages import board_page

    otto = UserFactory(username="otto")
    game = play.create_game(
        hanna,
        registry.get("siam"),
        title="Since",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
        timeout_policy=Game.TimeoutPolicy.STAND_IN,
    )
    play.join(game.pk, otto)
    game.refresh_from_db()
    late = game.seats.get(to_move=True).user
    client.force_login(late)
    client.get(game.get_absolute_url())  # the player looks at the game once, then vanishes
    with (
        time_machine.travel(game.deadline + timedelta(minutes=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert play.time_out(game.pk, game.deadline) == "stood_in"
    game.refresh_from_db()
    seat = game.seats.get(stood_in_for=late)
    assert game.moves.filter(seat=seat.number).exists()  # the computer has moved
    play.reclaim_seat(game.pk, late)
    game.refresh_from_db()
    page = board_page(game, late)
    # The computer's moves count as new for the player: they did not see them.
    assert page.since is not None and page.since.moves == 0
    assert "Since you last looked" in client.get(game.get_absolute_url()).content.decode()


def test_a_player_removed_by_a_moderator_cannot_take_the_seat_back(
    hanna, django_capture_on_commit_callbacks
):
    otto, karl = UserFactory(username="otto"), UserFactory(username="karl")
    game = play.create_game(
        hanna,
        registry.get("siam"),
        title="Removed",
        players=3,
        options={},
        time_limit_days=3,
        private=True,
        timeout_policy=Game.TimeoutPolicy.STAND_IN,
    )
    play.join(game.pk, otto)
    play.join(game.pk, karl)
    with django_capture_on_commit_callbacks(execute=True):
        assert play.remove_player(game.pk, otto) == "stood_in"
    game.refresh_from_db()
    assert game.seat_of(otto) is None and game.stood_in_seat(otto) is None
    assert not game.visible_to(otto)
    with pytest.raises(play.PlayError):
        play.reclaim_seat(game.pk, otto)


def test_a_rematch_of_a_practice_game_needs_only_the_person(
    hanna, django_capture_on_commit_callbacks
):
    from community import rematch

    with django_capture_on_commit_callbacks(execute=True):
        game = play.create_game(
            hanna,
            registry.get("siam"),
            title="Practice",
            players=3,
            options={},
            time_limit_days=3,
            private=False,
            computer_players=["random", "greedy"],
        )
        play.resign(game.pk, hanna)
        offer = rematch.answer(game.pk, hanna, True)
    assert offer.new_game is not None
    new = offer.new_game
    new.refresh_from_db()
    assert new.status == Game.Status.ACTIVE and new.computer_played
    assert sorted(strength_of(s.user) for s in new.seats.filter(user__is_bot=True)) == [
        "greedy",
        "random",
    ]
