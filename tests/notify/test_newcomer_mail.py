"""What a newcomer was not told about mail (issue 34): when the turn mail comes, the
choice to get it at once, no mail from a practice game they are looking at, and no
quiet hours chosen for them at sign-up."""

import datetime
import random

import pytest
from django.core import mail
from django.test import Client

from accounts.forms import SettingsForm
from accounts.models import User
from games import play, registry, replay
from games.models import Game
from notify.compose import SEEN_RECENTLY
from notify.models import Notification
from tests.factories import UserFactory

from .conftest import drain, mails_to, turn

pytestmark = pytest.mark.django_db


# -- 1. the turn mail while the player looks, said plainly, and "at once" --------------


def _looking(game, user):
    client = Client()
    client.force_login(user)
    assert client.get(f"/g/{game.pk}/poll?v=0&c=0").status_code == 200
    return client


def test_a_player_who_chose_at_once_gets_the_turn_mail_while_looking(game, anna, bert, clock):
    bert.notify_at_once = True
    bert.save()
    _looking(game, bert)
    turn(game, anna)
    drain()
    assert len(mails_to(bert, "Your turn")) == 1


def test_without_at_once_the_mail_waits_as_long_as_the_page_says(game, anna, bert, clock):
    _looking(game, bert)
    turn(game, anna)
    drain()
    assert mails_to(bert) == []
    clock.shift(SEEN_RECENTLY + datetime.timedelta(seconds=1))
    drain()
    assert len(mails_to(bert, "Your turn")) == 1


def test_the_game_page_says_when_the_turn_mail_comes(game, anna, bert, clock):
    page = _looking(game, bert).get(f"/g/{game.pk}/").content.decode()
    assert (
        "No turn e-mail while this page is open: it goes about 5 minutes after you leave it."
        in (page)
    )
    assert SEEN_RECENTLY == datetime.timedelta(minutes=5)  # the number the page says
    bert.notify_at_once = True
    bert.save()
    page = _looking(game, bert).get(f"/g/{game.pk}/").content.decode()
    assert "Your turn e-mail goes at once, even while this page is open." in page


def test_the_settings_say_when_the_turn_mail_comes_and_offer_at_once(anna):
    client = Client()
    client.force_login(anna)
    page = client.get("/settings/").content.decode()
    assert "the e-mail goes about 5 minutes after you leave the game" in page
    assert 'name="notify_at_once"' in page
    assert "E-mail me at once, even while I have the game open" in page
    assert "notify_at_once" in SettingsForm.Meta.fields


# -- 2. practice games ---------------------------------------------------------------


def _practice(user, kind="siam", players=2, **extra):
    return play.create_game(
        user,
        registry.get(kind),
        title="Practice",
        players=players,
        options={},
        time_limit_days=3,
        private=True,
        computer_players=["random"] * (players - 1),
        **extra,
    )


@pytest.mark.parametrize("kind", ["siam", "tal"])
def test_a_practice_game_sends_its_creator_no_start_and_no_turn_mail(
    kind, anna, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = _practice(anna, kind)
    rng = random.Random(1)
    for _ in range(6):  # a few turns, each answered by the computer
        game.refresh_from_db()
        seat = game.seat_of(anna).number
        state = replay.current_state(game)
        with django_capture_on_commit_callbacks(execute=True):
            play.act(game.pk, anna, rng.choice(game.engine.legal_actions(state, seat)), None)
    drain()
    assert mails_to(anna) == []
    assert not Notification.objects.filter(user=anna).exists()  # nothing waits either


def test_a_practice_game_played_to_its_end_sends_no_end_mail(
    anna, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = _practice(anna)
    rng = random.Random(2)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.seat_of(anna).number
        state = replay.current_state(game)
        with django_capture_on_commit_callbacks(execute=True):
            play.act(game.pk, anna, rng.choice(game.engine.legal_actions(state, seat)), None)
    assert game.status == Game.Status.FINISHED
    drain()
    assert mails_to(anna) == []


def test_a_practice_game_the_clock_ended_is_told_by_mail(anna, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = _practice(anna)
    game.refresh_from_db()
    late = game.deadline + datetime.timedelta(minutes=1)
    import time_machine

    with time_machine.travel(late, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert play.time_out(game.pk, game.deadline) == "lost"
        drain()
    assert len(mails_to(anna)) == 1 and "is over" in mails_to(anna)[0].subject


def test_a_practice_game_still_warns_before_the_time_runs_out(
    anna, django_capture_on_commit_callbacks
):
    from notify import reminders

    with django_capture_on_commit_callbacks(execute=True):
        game = _practice(anna)
    game.refresh_from_db()
    import time_machine

    with time_machine.travel(game.deadline - datetime.timedelta(hours=6), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            reminders.queue_reminders()
        drain()
    subjects = [m.subject for m in mails_to(anna)]
    assert len(subjects) == 1 and "reminder" not in subjects[0].lower()
    kinds = set(Notification.objects.filter(user=anna).values_list("kind", "skipped"))
    assert (Notification.Kind.REMINDER, "practice game") in kinds


def test_a_game_with_a_second_person_is_no_practice_and_mails_as_before(
    anna, bert, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play.create_game(
            anna,
            registry.get("siam"),
            title="Three",
            players=3,
            options={},
            time_limit_days=3,
            private=False,
            computer_players=["random"],
        )
        play.join(game.pk, bert)
    drain()
    assert len(mails_to(anna, "started")) == 1 and len(mails_to(bert, "started")) == 1


# -- 5. no quiet hours chosen for a new player ---------------------------------------------


def test_a_new_account_has_no_quiet_hours_and_the_help_text_says_so(client):
    response = client.post(
        "/accounts/signup/",
        {
            "email": "newcomer@example.com",
            "username": "newcomer",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
            "time_zone": "Europe/Berlin",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newcomer")
    assert user.quiet_from is None and user.quiet_until is None
    client.force_login(user)
    page = client.get("/settings/").content.decode()
    assert 'type="time" name="quiet_from"' in page
    assert 'name="quiet_from" value=' not in page  # nothing pre-filled
    assert "Both empty, as for a new account: e-mail at any hour." in page


def test_mail_to_a_new_account_comes_at_night_too(count_kind, django_capture_on_commit_callbacks):
    import time_machine

    night = datetime.datetime(2030, 5, 15, 1, 0, tzinfo=datetime.UTC)  # 03:00 in Berlin
    with time_machine.travel(night, tick=False):
        anna = UserFactory(time_zone="Europe/Berlin")
        bert = UserFactory(time_zone="Europe/Berlin")
        game = play.create_game(
            anna, count_kind, title="Night", players=2, options={}, time_limit_days=3, private=False
        )
        with django_capture_on_commit_callbacks(execute=True):
            play.join(game.pk, bert)
        drain()
        assert mails_to(anna, "started") and mails_to(bert, "started")
    assert mail.outbox
