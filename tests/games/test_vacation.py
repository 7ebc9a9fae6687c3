"""Vacation: the clock stops and resumes, the yearly allowance, and who sees it."""

from datetime import timedelta

import pytest
import time_machine

from games import deadlines, play
from games.clock import vacation
from games.models import Game, VacationDay
from tests.factories import UserFactory

from .clock import DAY, START, mover, new_game

pytestmark = pytest.mark.django_db
MINUTE = timedelta(minutes=1)
TODAY = START.date()


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def pair(db):
    return [UserFactory(display_name="Alice"), UserFactory(display_name="Bob")]


def go_on_vacation(user, until):
    user.vacation_until = until
    user.save(update_fields=["vacation_until"])
    vacation.book(user)


def test_vacation_stops_the_clock_and_it_resumes_with_the_time_that_was_left(
    clock, count_kind, pair
):
    game = new_game(count_kind, pair)
    away = mover(game)
    clock.shift(DAY)
    go_on_vacation(away, TODAY + 5 * DAY)  # away until the end of day 5
    assert deadlines.sweep()["paused"] == 1
    game.refresh_from_db()
    assert game.deadline is None and game.paused_remaining == 2 * DAY
    clock.shift(4 * DAY)  # long past the old deadline: nothing happens
    assert deadlines.sweep() == dict.fromkeys(
        ("unpaused", "paused", "resumed", "timed_out", "lost", "aborted", "failed"), 0
    )
    clock.shift(12 * 60 * MINUTE)  # midnight: the last vacation day is over
    assert deadlines.sweep()["resumed"] == 1
    game.refresh_from_db()
    back = START + 5 * DAY + 12 * 60 * MINUTE
    assert game.deadline == back + 2 * DAY and game.paused_remaining is None
    clock.shift(2 * DAY - MINUTE)
    assert deadlines.sweep()["timed_out"] == 0
    clock.shift(2 * MINUTE)
    assert deadlines.sweep()["timed_out"] == 1


def test_ending_a_vacation_early_restarts_the_clock_at_the_next_sweep(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    away = mover(game)
    go_on_vacation(away, TODAY + 10 * DAY)
    deadlines.sweep()
    clock.shift(DAY)
    go_on_vacation(away, None)
    assert deadlines.sweep()["resumed"] == 1
    game.refresh_from_db()
    assert game.deadline == START + DAY + 3 * DAY


def test_a_turn_passing_to_a_player_on_vacation_stops_the_clock_at_once(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    first = mover(game)
    second = next(user for user in pair if user != first)
    go_on_vacation(second, TODAY + 3 * DAY)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    game.refresh_from_db()
    assert game.deadline is None and game.paused_remaining == 3 * DAY
    page_game = Game.objects.get(pk=game.pk)
    assert page_game.clock_paused


def test_without_vacation_in_the_game_the_clock_runs_regardless(clock, count_kind, pair):
    game = new_game(count_kind, pair, vacation_allowed=False)
    go_on_vacation(mover(game), TODAY + 10 * DAY)
    assert deadlines.sweep()["paused"] == 0
    clock.shift(3 * DAY + MINUTE)
    assert deadlines.sweep()["lost"] == 1


def test_the_clock_runs_while_someone_to_move_is_not_on_vacation(clock):
    """Simultaneous phase: one of three planners away, so the clock runs for all."""
    from .test_deadlines import _tal_plan_phase

    users = [UserFactory() for _ in range(3)]
    game = _tal_plan_phase(users)
    go_on_vacation(game.seats.get(number=0).user, TODAY + 10 * DAY)
    assert deadlines.sweep()["paused"] == 0
    for number in (1, 2):
        go_on_vacation(game.seats.get(number=number).user, TODAY + 10 * DAY)
    assert deadlines.sweep()["paused"] == 1


def test_the_allowance_is_shown_and_a_longer_vacation_refused(clock, client, pair, settings):
    settings.VACATION_DAYS_PER_YEAR = 30
    user = pair[0]
    client.force_login(user)
    page = client.get("/settings/").content.decode()
    assert "You have 30 vacation days left this year (of 30)." in page
    too_long = client.post("/settings/", _settings_form(user, TODAY + 30 * DAY))
    assert too_long.status_code == 200
    assert "more than your 30 vacation days a year" in too_long.content.decode()
    user.refresh_from_db()
    assert user.vacation_until is None
    ok = client.post("/settings/", _settings_form(user, TODAY + 29 * DAY))
    assert ok.status_code == 302
    page = client.get("/settings/").content.decode()
    assert "You have 0 vacation days left this year (of 30)." in page


def test_setting_and_clearing_the_date_cannot_win_days_back(clock, client, pair, settings):
    settings.VACATION_DAYS_PER_YEAR = 30
    user = pair[0]
    for day in range(25):
        client.force_login(user)  # sessions expire after two weeks
        client.post("/settings/", _settings_form(user, TODAY + day * DAY + 2 * DAY))
        client.post("/settings/", _settings_form(user, None))
        clock.shift(DAY)
    # Every one of those days began on vacation, so each one counts.
    assert vacation.days_left(user) == 5
    refused = client.post("/settings/", _settings_form(user, TODAY + 25 * DAY + 5 * DAY))
    assert refused.status_code == 200
    assert (
        client.post("/settings/", _settings_form(user, TODAY + 25 * DAY + 4 * DAY)).status_code
        == 302
    )


def test_the_sweep_counts_a_vacation_set_outside_the_settings_page(clock, pair):
    user = pair[0]
    user.vacation_until = TODAY + 3 * DAY  # e.g. by a moderator in the admin
    user.save()
    deadlines.sweep()
    deadlines.sweep()
    assert list(VacationDay.objects.filter(user=user).values_list("day", flat=True)) == [TODAY]


def test_a_vacation_over_new_year_counts_against_each_year(pair, settings):
    settings.VACATION_DAYS_PER_YEAR = 10
    user = pair[0]
    with time_machine.travel("2027-12-25 12:00Z", tick=False):
        from datetime import date

        assert vacation.overdrawn_years(user, date(2028, 1, 3)) == []  # 7 + 3 days
        assert vacation.overdrawn_years(user, date(2028, 1, 12)) == [2028]
        assert vacation.overdrawn_years(user, date(2027, 12, 20)) == []  # in the past


def test_others_see_on_vacation_until_on_the_game_page_and_in_the_lobby(
    clock, client, count_kind, pair
):
    away, other = pair
    go_on_vacation(away, TODAY + 5 * DAY)
    game = new_game(count_kind, pair)
    open_game = play.create_game(
        away, count_kind, title="Waiting", players=2, options={}, time_limit_days=3, private=False
    )
    client.force_login(other)
    note = "on vacation until 6 March 2027"
    board = client.get(f"/g/{game.pk}/").content.decode()
    assert note in board
    assert note in client.get("/my/").content.decode()
    lobby = client.get("/").content.decode()
    assert "Waiting" in lobby and note in lobby
    assert note in client.get(f"/g/{open_game.pk}/").content.decode()
    go_on_vacation(away, None)
    assert "on vacation until" not in client.get(f"/g/{game.pk}/").content.decode()


def test_the_game_page_says_the_clock_is_stopped(clock, client, count_kind, pair):
    game = new_game(count_kind, pair)
    go_on_vacation(mover(game), TODAY + 5 * DAY)
    deadlines.sweep()
    client.force_login(pair[0])
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "The clock is stopped while the players to move are on vacation; 3" in page


def _settings_form(user, until):
    return {
        "display_name": user.display_name,
        "language": "en",
        "time_zone": "UTC",
        "notify_turn": "on",
        "notify_reminder_hours": "24",
        "notify_game_end": "on",
        "quiet_from": "22:00",
        "quiet_until": "07:00",
        "vacation_until": until.isoformat() if until else "",
    }


def test_a_vacation_begun_after_the_deadline_does_not_save_the_late_player(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    late = mover(game)
    clock.shift(3 * DAY + MINUTE)  # the time has run out, the sweep has not come yet
    go_on_vacation(late, TODAY + 20 * DAY)
    counts = deadlines.sweep()
    assert counts["paused"] == 0 and counts["timed_out"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_day_already_over_is_refused_but_an_ended_vacation_does_not_block_the_form(
    clock, client, pair
):
    user = pair[0]
    client.force_login(user)
    refused = client.post("/settings/", _settings_form(user, TODAY - DAY))
    assert refused.status_code == 200
    assert "This day is already over." in refused.content.decode()
    user.refresh_from_db()
    assert user.vacation_until is None
    # A vacation that has ended since it was set is still in the form: saving the
    # other settings with it unchanged is fine.
    assert client.post("/settings/", _settings_form(user, TODAY + DAY)).status_code == 302
    clock.shift(3 * DAY)
    assert client.post("/settings/", _settings_form(user, TODAY + DAY)).status_code == 302
