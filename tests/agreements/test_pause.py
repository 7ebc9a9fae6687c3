"""Agreed pause: the clock stops when every person at the table agrees, until the agreed
date or an earlier agreed resume, within the days the game allows; moderators can end it."""

from datetime import timedelta

import pytest
import time_machine

from agreements import flows
from agreements.models import Request
from games import deadlines, pause, play
from games.clock import vacation
from games.models import Game, Pause
from moderation import actions as moderation
from moderation.models import AuditEntry
from notify.models import Notification
from tests.factories import UserFactory
from tests.games.clock import DAY, START, mover, new_game

pytestmark = pytest.mark.django_db
MINUTE = timedelta(minutes=1)
NOTHING = dict.fromkeys(
    ("unpaused", "paused", "resumed", "timed_out", "lost", "aborted", "failed"), 0
)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def pair(db):
    return [UserFactory(display_name="Alice"), UserFactory(display_name="Bob")]


def agree_to_pause(game, users, until):
    request = flows.ask(game.pk, users[0], Request.Kind.PAUSE, until)
    for user in users[1:]:
        flows.answer(game.pk, user, request.pk, True)
    game.refresh_from_db()
    return request


def test_the_clock_stops_until_the_agreed_date_across_the_deadline_and_runs_on(
    clock, count_kind, pair
):
    game = new_game(count_kind, pair)  # three days per move
    late = mover(game)
    clock.shift(DAY)
    request = flows.ask(game.pk, pair[0], Request.Kind.PAUSE, START + 5 * DAY)
    game.refresh_from_db()
    assert game.deadline == START + 3 * DAY  # one "yes" is missing: the clock runs
    assert Notification.objects.filter(kind=Notification.Kind.PAUSE_ASKED, user=pair[1]).exists()
    flows.answer(game.pk, pair[1], request.pk, True)
    game.refresh_from_db()
    assert game.deadline is None and game.paused_until == START + 5 * DAY
    assert game.paused_remaining == 2 * DAY
    clock.shift(2 * DAY + 60 * MINUTE)  # past the old deadline: nothing happens
    assert deadlines.sweep() == NOTHING
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    clock.shift(2 * DAY - 60 * MINUTE + MINUTE)  # the agreed date has come
    assert deadlines.sweep() == {**NOTHING, "unpaused": 1}
    game.refresh_from_db()
    assert game.paused_until is None and game.deadline == START + 5 * DAY + MINUTE + 2 * DAY
    assert Pause.objects.get(game=game).ended == Pause.Ended.TIME
    clock.shift(2 * DAY - 2 * MINUTE)
    assert deadlines.sweep()["timed_out"] == 0
    clock.shift(3 * MINUTE)
    assert deadlines.sweep()["timed_out"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and late.pk not in [
        game.seats.get(number=n).user_id for n in game.result["winners"]
    ]


def test_moves_go_on_during_a_pause_and_the_next_turn_waits_with_its_full_time(
    clock, count_kind, pair
):
    game = new_game(count_kind, pair)
    agree_to_pause(game, pair, START + 4 * DAY)
    first = mover(game)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    game.refresh_from_db()
    assert game.deadline is None and game.paused_remaining == 3 * DAY
    clock.shift(4 * DAY)
    deadlines.sweep()
    game.refresh_from_db()
    assert game.deadline == START + 7 * DAY


def test_an_earlier_resume_by_agreement(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    agree_to_pause(game, pair, START + 10 * DAY)
    clock.shift(2 * DAY)
    request = flows.ask(game.pk, pair[1], Request.Kind.RESUME)
    assert Game.objects.get(pk=game.pk).paused_until is not None  # Alice has not agreed yet
    flows.answer(game.pk, pair[0], request.pk, True)
    game.refresh_from_db()
    assert game.paused_until is None and game.deadline == START + 5 * DAY
    # Two days were used of the fourteen the game allows.
    assert pause.days_used(game) == 2 and pause.days_left(game) == 12


def test_a_refused_pause_changes_nothing(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    request = flows.ask(game.pk, pair[0], Request.Kind.PAUSE, START + 2 * DAY)
    flows.answer(game.pk, pair[1], request.pk, False)
    game.refresh_from_db()
    assert game.deadline == START + 3 * DAY and game.paused_until is None
    assert Request.objects.get().status == Request.Status.REFUSED


def test_the_limit_set_at_creation(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    Game.objects.filter(pk=game.pk).update(pause_days=7)
    with pytest.raises(play.PlayError, match="7 days of agreed pauses left"):
        flows.ask(game.pk, pair[0], Request.Kind.PAUSE, START + 8 * DAY)
    agree_to_pause(game, pair, START + 3 * DAY)
    clock.shift(3 * DAY)
    deadlines.sweep()
    with pytest.raises(play.PlayError, match="4 days of agreed pauses left"):
        flows.ask(game.pk, pair[0], Request.Kind.PAUSE, START + 8 * DAY + MINUTE)
    Game.objects.filter(pk=game.pk).update(pause_days=0)
    with pytest.raises(play.PlayError, match="without agreed pauses"):
        flows.ask(game.pk, pair[0], Request.Kind.PAUSE, START + 4 * DAY)
    with pytest.raises(play.PlayError, match="in the future"):
        Game.objects.filter(pk=game.pk).update(pause_days=14)
        flows.ask(game.pk, pair[0], Request.Kind.PAUSE, START)


def test_the_create_form_sets_the_limit(client, count_kind, pair):
    client.force_login(pair[0])
    client.post(
        "/new/count/",
        {
            "title": "Short pauses",
            "players": 2,
            "time_limit_days": 3,
            "timeout_policy": "lose",
            "pause_days": 7,
            "option_target": "10",
        },
    )
    game = Game.objects.get(title="Short pauses")
    assert game.pause_days == 7
    assert "up to 7 days in all" in client.get(f"/g/{game.pk}/").content.decode()


def test_a_pause_ending_during_a_vacation_leaves_the_clock_to_the_vacation(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    away = mover(game)
    agree_to_pause(game, pair, START + 2 * DAY)
    away.vacation_until = (START + 4 * DAY).date()
    away.save(update_fields=["vacation_until"])
    vacation.book(away)
    clock.shift(2 * DAY + MINUTE)
    assert deadlines.sweep()["unpaused"] == 1
    game.refresh_from_db()
    assert game.deadline is None and game.paused_remaining == 3 * DAY  # on vacation
    clock.shift(3 * DAY)
    assert deadlines.sweep()["resumed"] == 1


def test_computer_players_agree_to_a_pause_at_once(clock, users):
    from games import registry

    game = play.create_game(
        users[0],
        registry.get("siam"),
        title="Practice",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
        computer_players=["random"],
    )
    request = flows.ask(game.pk, users[0], Request.Kind.PAUSE, START + 2 * DAY)
    assert request.status == Request.Status.AGREED
    assert Game.objects.get(pk=game.pk).paused_until == START + 2 * DAY


def test_a_moderator_ends_a_pause_and_it_is_audited(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    agree_to_pause(game, pair, START + 10 * DAY)
    moderator = UserFactory(is_staff=True, is_superuser=True)
    clock.shift(DAY)
    moderation.end_pause(moderator, game, "players asked by mail")
    game.refresh_from_db()
    assert game.paused_until is None and game.deadline == START + 4 * DAY
    entry = AuditEntry.objects.get()
    assert entry.action == AuditEntry.Action.END_PAUSE and entry.target_game == game
    assert Pause.objects.get(game=game).ended == Pause.Ended.MODERATOR
    with pytest.raises(moderation.ModerationError):
        moderation.end_pause(moderator, game, "again")


def test_the_page_and_the_lists_show_the_pause(clock, client, count_kind, pair):
    game = new_game(count_kind, pair)
    agree_to_pause(game, pair, START + 6 * DAY)
    client.force_login(pair[1])
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "The players agreed to pause" in page and "Ask to end the pause now" in page
    assert "paused until" in client.get("/my/").content.decode()
    assert "paused until" in client.get("/").content.decode()


def test_a_pause_is_asked_on_the_page(clock, client, count_kind, pair):
    game = new_game(count_kind, pair)
    client.force_login(pair[0])
    response = client.post(f"/g/{game.pk}/agree/ask", {"kind": "pause", "until": "2027-03-04"})
    assert response.status_code == 302
    request = Request.objects.get()
    assert request.until.date().isoformat() == "2027-03-05"  # through the 4th
    for junk in ("", "tomorrow", "2027-02-30", "99999-01-01"):
        request.status = Request.Status.WITHDRAWN
        request.save()
        answer = client.post(f"/g/{game.pk}/agree/ask", {"kind": "pause", "until": junk})
        assert answer.status_code == 400, junk
    assert Request.objects.filter(status=Request.Status.OPEN).count() == 0
