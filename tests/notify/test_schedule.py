"""Reminders, the last warning, quiet hours and the daily digest, with the clock controlled."""

import datetime
import zoneinfo

import pytest
from django.core import mail

from notify import reminders
from notify.models import Notification

from .conftest import NOON, drain, mails_to, turn

pytestmark = pytest.mark.django_db
HOUR = datetime.timedelta(hours=1)


def sweep():
    reminders.queue_reminders()
    drain()


def test_reminder_once_per_turn_after_the_chosen_delay(game, anna, bert, clock):
    bert.notify_reminder_hours = 12
    bert.save()
    turn(game, anna)
    drain()
    mail.outbox.clear()
    clock.shift(11 * HOUR)  # 23:00 UTC is 01:00 in Berlin: quiet, but nothing is due yet
    sweep()
    assert mail.outbox == []
    clock.shift(9 * HOUR)  # 08:00 UTC, 20 hours after the turn began
    sweep()
    sweep()
    [reminder] = mails_to(bert)
    assert reminder.subject == "Reminder: “Counting” is waiting for your move"
    assert "20\xa0hours" in reminder.body
    clock.shift(30 * HOUR)
    sweep()
    assert len(mails_to(bert)) == 1  # once per turn
    turn(game, bert)
    turn(game, anna)
    clock.shift(17 * HOUR)  # 09:00 in Berlin
    sweep()
    assert len(mails_to(bert, "Reminder")) == 2  # a new turn, a new reminder


def test_no_reminder_when_switched_off(game, anna, bert, clock):
    bert.notify_reminder_hours = 0
    bert.save()
    turn(game, anna)
    clock.shift(50 * HOUR)
    sweep()
    assert mails_to(bert, "Reminder") == []


def test_last_warning_once_when_a_quarter_of_the_time_is_left(game, anna, bert, clock):
    bert.notify_reminder_hours = 0
    bert.save()
    turn(game, anna)  # four days to move
    clock.shift(71 * HOUR)
    sweep()
    assert mails_to(bert, "Last warning") == []
    clock.shift(2 * HOUR)  # 23 hours left, less than a quarter of 96
    sweep()
    sweep()
    [warning] = mails_to(bert, "Last warning")
    assert "23\xa0hours" in warning.body
    clock.shift(10 * HOUR)
    sweep()
    assert len(mails_to(bert, "Last warning")) == 1


@pytest.mark.parametrize(
    ("zone", "move_at_utc", "sent_at_utc"),
    [
        # Berlin (UTC+2 in May): 22:30 local is quiet, the mail waits for 07:00 local.
        ("Europe/Berlin", (20, 30), (5, 0)),
        # New York (UTC-4): 22:30 local is 02:30 UTC the next day.
        ("America/New_York", (2, 30), (11, 0)),
    ],
)
def test_quiet_hours_hold_mail_until_they_end(
    game, anna, bert, clock, zone, move_at_utc, sent_at_utc
):
    bert.time_zone = zone
    bert.quiet_from, bert.quiet_until = datetime.time(22, 0), datetime.time(7, 0)
    bert.save()
    start = datetime.datetime(2030, 5, 16, *move_at_utc, tzinfo=datetime.UTC)
    clock.move_to(start)
    turn(game, anna)
    row = Notification.objects.filter(user=bert, kind="turn").latest("pk")
    local_due = row.due_at.astimezone(zoneinfo.ZoneInfo(zone))
    assert (local_due.hour, local_due.minute) == (7, 0)
    clock.shift(datetime.timedelta(hours=8))  # still before the end in both cases
    drain()
    assert mails_to(bert) == []
    end = datetime.datetime(2030, 5, 16 if sent_at_utc[0] > move_at_utc[0] else 17, *sent_at_utc)
    clock.move_to(end.replace(tzinfo=datetime.UTC))
    drain()
    assert len(mails_to(bert)) == 1


def test_quiet_hours_are_editable(game, anna, bert, clock):
    bert.quiet_from = datetime.time(9, 0)
    bert.quiet_until = datetime.time(18, 0)
    bert.save()
    turn(game, anna)  # 14:00 in Berlin
    drain()
    assert mails_to(bert) == []
    clock.shift(4 * HOUR)  # 18:00 Berlin
    drain()
    assert len(mails_to(bert)) == 1


def test_daily_digest_collects_turns_of_all_games(game, anna, bert, clock, count_kind):
    from tests.factories import running_game

    bert.digest_hour = 19
    bert.save()
    other = running_game("count", [anna, bert], title="Second")
    turn(game, anna)
    drain()
    for g in (other,):
        seat = g.seats.get(user=anna)
        if seat.to_move:
            turn(g, anna)
    drain()
    assert mails_to(bert, "Your turn") == []
    clock.shift(5 * HOUR - datetime.timedelta(minutes=1))  # 18:59 in Berlin
    drain()
    assert mails_to(bert, "Your turn") == []
    clock.shift(datetime.timedelta(minutes=1))
    drain()
    drain()
    [digest] = mails_to(bert, "Your turn")
    assert digest.subject == "Your turn in 2 games"
    assert "Counting" in digest.body and "Second" in digest.body
    assert "Anna adds 1." in digest.body
    assert (
        Notification.objects.filter(user=bert, kind="turn", sent_at=None, skipped="").count() == 0
    )
    # the next day's turns make the next day's digest
    turn(game, bert)
    turn(game, anna)
    clock.shift(24 * HOUR)
    drain()
    assert len(mails_to(bert, "Your turn in 1 game")) == 1


def test_a_last_warning_that_quiet_hours_would_hold_past_its_use_goes_at_once(
    game, anna, bert, clock
):
    bert.notify_reminder_hours = 0
    bert.quiet_from, bert.quiet_until = datetime.time(13, 0), datetime.time(12, 30)
    bert.save()
    turn(game, anna)  # four days to move: the deadline is noon UTC on day four
    clock.shift(
        72 * HOUR + datetime.timedelta(minutes=1)
    )  # a quarter left, and quiet until 10:30 UTC on day four
    sweep()
    assert len(mails_to(bert, "Last warning")) == 1


def test_a_game_whose_clock_ignores_vacations_still_mails_the_player_on_vacation(
    game, anna, bert, clock
):
    game.vacation_allowed = False
    game.save(update_fields=["vacation_allowed"])
    bert.vacation_until = (NOON + 10 * 24 * HOUR).date()
    bert.save()
    turn(game, anna)
    drain()
    assert len(mails_to(bert, "Your turn")) == 1


def _save_settings(user, **changes):
    """The settings page as ``user`` sends it, with ``changes``."""
    from django.test import Client

    data = {
        "display_name": user.display_name,
        "language": "",
        "time_zone": user.time_zone,
        "notify_turn": "on",
        "notify_reminder_hours": "0",
        "notify_game_end": "on",
        "digest_hour": "" if user.digest_hour is None else str(user.digest_hour),
        "quiet_from": user.quiet_from.strftime("%H:%M") if user.quiet_from else "",
        "quiet_until": user.quiet_until.strftime("%H:%M") if user.quiet_until else "",
        "vacation_until": "",
        **changes,
    }
    client = Client()
    client.force_login(user)
    assert client.post("/settings/", data).status_code == 302


def _afternoon_quiet(user):
    user.quiet_from, user.quiet_until = datetime.time(9, 0), datetime.time(18, 0)
    user.save()


def test_mail_held_by_quiet_hours_goes_at_once_when_they_are_turned_off(game, anna, bert, clock):
    _afternoon_quiet(bert)
    turn(game, anna)  # 14:00 in Berlin: held until 18:00
    drain()
    assert mails_to(bert) == []
    _save_settings(bert, quiet_from="", quiet_until="")
    drain()  # nothing shifted the clock: the mail is due now
    [mail_] = mails_to(bert, "Your turn")
    assert "Counting" in mail_.subject


def test_mail_held_by_quiet_hours_follows_their_new_end(game, anna, bert, clock):
    _afternoon_quiet(bert)
    turn(game, anna)
    _save_settings(bert, quiet_until="15:00")
    clock.shift(HOUR - datetime.timedelta(minutes=1))  # 14:59 in Berlin
    drain()
    assert mails_to(bert) == []
    clock.shift(datetime.timedelta(minutes=1))
    drain()
    assert len(mails_to(bert, "Your turn")) == 1


def test_longer_quiet_hours_do_not_hold_waiting_mail_later(game, anna, bert, clock):
    _afternoon_quiet(bert)
    turn(game, anna)
    _save_settings(bert, quiet_until="21:00")
    clock.shift(4 * HOUR)  # 18:00 in Berlin, when it was due
    drain()
    assert len(mails_to(bert, "Your turn")) == 1


def test_turning_the_digest_off_sends_the_turns_it_kept_as_turn_mails(game, anna, bert, clock):
    bert.digest_hour = 19
    bert.save()
    turn(game, anna)
    drain()
    assert mails_to(bert) == []
    _save_settings(bert, digest_hour="")
    drain()
    [mail_] = mails_to(bert, "Your turn")
    assert mail_.subject == "Your turn in “Counting”"
    assert "Anna adds 1." in mail_.body
    clock.shift(6 * HOUR)  # past 19:00: no digest comes
    drain()
    assert len(mails_to(bert, "Your turn")) == 1
    assert Notification.objects.get(user=bert, kind="digest").skipped == "digest turned off"


def test_a_new_digest_hour_moves_the_waiting_digest(game, anna, bert, clock):
    bert.digest_hour = 19
    bert.save()
    turn(game, anna)  # 14:00 in Berlin
    _save_settings(bert, digest_hour="16")
    clock.shift(2 * HOUR - datetime.timedelta(minutes=1))
    drain()
    assert mails_to(bert) == []
    clock.shift(datetime.timedelta(minutes=1))  # 16:00 in Berlin
    drain()
    [digest] = mails_to(bert, "Your turn")
    assert digest.subject == "Your turn in 1 game"


def test_a_start_held_by_quiet_hours_is_not_sent_after_the_game_ended(
    anna, bert, clock, count_kind
):
    """Started and over in one night: the morning brings the result, not a start mail
    with nobody to move."""
    from games import play

    bert.quiet_from, bert.quiet_until = datetime.time(9, 0), datetime.time(18, 0)
    bert.save()
    game = play.create_game(
        anna, count_kind, title="Night", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)  # 14:00 in Berlin: bert's mail waits until 18:00
    play.resign(game.pk, anna)
    clock.shift(4 * HOUR)
    drain()
    subjects = [m.subject for m in mails_to(bert)]
    assert subjects == ["You won “Night”"]
    row = Notification.objects.get(user=bert, kind="game_started")
    assert row.skipped == "game over"
