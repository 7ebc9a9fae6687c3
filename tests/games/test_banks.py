"""A game of hours with a bank per seat, played through the site with the clock moved
by hand: increments, the cap, a weekend without charge, the reminder, the timeout."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games import deadlines, ical, play
from games.clock import Pace
from games.models import Game
from notify import delivery, reminders
from notify.models import Notification
from tests.factories import UserFactory

H, M = timedelta(hours=1), timedelta(minutes=1)
# A Friday, 13:00 in Berlin (CET): the weekend there begins at 23:00 UTC.
FRIDAY = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)
PACE = Pace(start=10 * H, increment=1 * H, cap=11 * H)


def hand_on(game, at, clock):
    """The player to move ends their turn ``at`` (a step, then the end)."""
    clock.move_to(at)
    player = game.seats.get(to_move=True).user
    play.act(game.pk, player, {"type": "add", "n": 1}, None)
    play.act(game.pk, player, {"type": "end"}, None)
    game.refresh_from_db()
    return player


def bank(game, user):
    return game.seats.get(user=user).bank


@pytest.mark.django_db
def test_a_game_of_hours_on_banks(client, count_kind):
    alice = UserFactory(display_name="Alice", time_zone="Europe/Berlin")
    bob = UserFactory(display_name="Bob", time_zone="Europe/Berlin")
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = play.create_game(
            alice, count_kind, title="Hours", players=2, options={}, time_limit_days=3,
            private=False, pace=PACE, weekends_off=True,
        )  # fmt: skip
        play.join(game.pk, bob)
        game.refresh_from_db()
        assert game.deadline == FRIDAY + 10 * H  # the first bank runs, nobody else's

        first = hand_on(game, FRIDAY + 1 * H, clock)  # 9 h left, + 1 h
        assert bank(game, first) == 10 * H
        second = hand_on(game, FRIDAY + 1 * H + 10 * M, clock)  # 9:50 + 1 h
        assert bank(game, second) == 10 * H + 50 * M
        hand_on(game, FRIDAY + 1 * H + 15 * M, clock)  # 9:55 + 1 h
        assert bank(game, first) == 10 * H + 55 * M
        hand_on(game, FRIDAY + 1 * H + 20 * M, clock)  # 10:45 + 1 h: the cap holds 11 h
        assert bank(game, second) == PACE.cap

        # First to move from 13:20 UTC with 10:55: 9:40 until the weekend, 1:15 after it.
        monday = datetime(2027, 3, 7, 23, 0, tzinfo=UTC)  # Monday 00:00 in Berlin
        assert game.deadline == monday + 1 * H + 15 * M

        # Halfway through the bank (18:47:30), long before the player's 24 hours.
        clock.move_to(FRIDAY + 6 * H + 50 * M)
        assert reminders.queue_reminders() == 1
        reminder = Notification.objects.get(kind=Notification.Kind.REMINDER)
        assert reminder.user == first
        delivery.drain()
        [sent] = [m for m in mail.outbox if m.subject.startswith("Reminder")]
        assert "(5\xa0hours, 25\xa0minutes left)" in sent.body  # the bank's time, not Monday's
        # The calendar's event: when the bank runs out, after the weekend.
        assert b"DTSTART:20270308T001500Z" in ical.build(first)

        clock.move_to(monday - 1 * H)  # Sunday evening: the bank stood all weekend
        page = client.get(f"/g/{game.pk}/")
        assert page.status_code == 200
        html = page.content.decode()
        assert html.count("data-bank-left=") == 2
        assert ">01:15:00</time>" in html and ">11:00:00</time>" in html  # both banks

        clock.move_to(monday + 1 * H + 15 * M - timedelta(seconds=1))
        assert deadlines.sweep()["timed_out"] == 0
        clock.move_to(monday + 1 * H + 15 * M + timedelta(seconds=1))
        assert deadlines.sweep()["timed_out"] == 1
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.result["winners"] == [
            game.seats.get(user=second).number
        ]


@pytest.mark.django_db
def test_games_without_a_bank_keep_their_time_per_move(count_kind):
    alice, bob = UserFactory(), UserFactory()
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = play.create_game(
            alice, count_kind, title="Old", players=2, options={}, time_limit_days=3,
            private=False,
        )  # fmt: skip
        play.join(game.pk, bob)
        hand_on(game, FRIDAY + 5 * H, clock)
        # The full time per move again, the weekend counted, and no bank anywhere.
        assert game.deadline == FRIDAY + 5 * H + timedelta(days=3)
        assert not game.has_bank
        assert list(game.seats.values_list("bank", "bank_since")) == [(None, None)] * 2


@pytest.mark.django_db
def test_the_create_form_offers_named_paces_and_a_bank_of_ones_own(client, count_kind):
    client.force_login(UserFactory())
    form = client.get("/new/count/").content.decode()
    assert "Live: 1" in form and 'name="bank_start"' in form and 'name="weekends_off"' in form
    base = {"title": "Paced", "players": 2, "time_limit_days": 3, "option_target": "10"}
    client.post("/new/count/", {**base, "clock": "live", "weekends_off": "on"})
    live = Game.objects.get()
    assert (live.bank_start, live.bank_increment, live.bank_cap) == (24 * H, 4 * H, 72 * H)
    assert live.weekends_off
    client.post(
        "/new/count/",
        {
            **base,
            "clock": "custom",
            "bank_start": "1:30",
            "bank_increment": "0:10",
            "bank_cap": "3",
        },
    )
    own = Game.objects.exclude(pk=live.pk).get()
    assert (own.bank_start, own.bank_increment, own.bank_cap) == (90 * M, 10 * M, 3 * H)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "clock, extra, error",
    [
        ("custom", {"bank_start": "0:59"}, "at least one hour"),
        ("custom", {"bank_start": "5", "bank_cap": "4"}, "cannot be less than its start"),
        ("custom", {"bank_start": "ten"}, "hours and minutes as 1:30"),
        ("per_move", {"weekends_off": "on"}, "Weekends off need a clock with a bank"),
    ],
)
def test_a_bank_that_cannot_be_is_refused_and_nothing_made(client, count_kind, clock, extra, error):
    client.force_login(UserFactory())
    base = {"title": "Paced", "players": 2, "time_limit_days": 3, "option_target": "10"}
    page = client.post("/new/count/", {**base, "clock": clock, **extra})
    assert page.status_code == 200 and error in page.content.decode()
    assert not Game.objects.exists()
