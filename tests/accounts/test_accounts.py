import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from accounts.models import User
from games import play
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_needs_the_emailed_verification_link(client, django_capture_on_commit_callbacks):
    # The mail goes out through the outbox once the sign-up has committed.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/accounts/signup/",
            {
                "email": "nina@example.com",
                "username": "nina",
                "password1": "a-long-test-password",
                "password2": "a-long-test-password",
            },
        )
    assert response.status_code == 302
    user = User.objects.get(username="nina")
    assert not EmailAddress.objects.get(user=user).verified
    assert len(mail.outbox) == 1
    link = re.search(r"http://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
    # Not yet verified: signing in is refused.
    client.logout()
    client.post("/accounts/login/", {"login": "nina", "password": "a-long-test-password"})
    assert "_auth_user_id" not in client.session
    path = link.split("testserver", 1)[1]
    client.post(path)
    assert EmailAddress.objects.get(user=user).verified


@pytest.mark.parametrize("login", ["carla", "carla@example.com"])
def test_sign_in_by_username_or_email(client, login):
    UserFactory(username="carla")
    response = client.post("/accounts/login/", {"login": login, "password": "a-long-test-password"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_password_reset_sends_a_link(client, django_capture_on_commit_callbacks):
    UserFactory(username="dora")
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/password/reset/", {"email": "dora@example.com"})
    assert len(mail.outbox) == 1
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_settings_store_language_time_zone_and_notifications(client, settings):
    settings.VACATION_DAYS_PER_YEAR = 366  # the date below must not hit the allowance
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        "/settings/",
        {
            "display_name": "Eva S.",
            "language": "de",
            "time_zone": "Europe/Berlin",
            "notify_turn": "",
            "notify_reminder_hours": "48",
            "notify_game_end": "on",
            "quiet_from": "22:00",
            "quiet_until": "07:00",
            "vacation_until": "2027-01-10",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.language, user.time_zone) == ("Eva S.", "de", "Europe/Berlin")
    assert (user.notify_turn, user.notify_reminder_hours, user.notify_game_end) == (False, 48, True)
    assert str(user.vacation_until) == "2027-01-10"


def test_a_german_settings_page_shows_the_vacation_as_the_date_field_reads_it(client, settings):
    import datetime

    settings.VACATION_DAYS_PER_YEAR = 366
    until = datetime.date.today() + datetime.timedelta(days=20)
    user = UserFactory(language="de", vacation_until=until)
    client.force_login(user)
    page = client.get("/settings/").content.decode()
    assert "Einstellungen" in page
    # <input type="date"> reads only ISO dates: a German "20.12.2026" shows as empty,
    # and saving the form again would clear the vacation.
    assert f'name="vacation_until" value="{until.isoformat()}"' in page


def test_chosen_language_is_used_for_pages(client):
    user = UserFactory(language="de")
    client.force_login(user)
    page = client.get("/").content.decode()
    assert '<html lang="de">' in page
    assert "Offene Partien" in page


def test_browser_language_applies_when_none_chosen(client):
    page = client.get("/", headers={"Accept-Language": "de"}).content.decode()
    assert '<html lang="de">' in page


def test_public_profile_lists_public_games_only(client, count_kind):
    user = UserFactory(display_name="Fritz")
    play.create_game(
        user,
        count_kind,
        title="Public one",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    play.create_game(
        user, count_kind, title="Hidden one", players=2, options={}, time_limit_days=3, private=True
    )
    page = client.get(f"/u/{user.username}/").content.decode()
    assert "Fritz" in page and "Public one" in page and "Hidden one" not in page
    assert "Public one</a> <em>(waiting for players)</em>" in page


def test_profile_lists_running_games_and_the_latest_finished_ones(client, count_kind):
    fritz, other = UserFactory(display_name="Fritz"), UserFactory(display_name="Olga")

    def game(title, private=False):
        game = play.create_game(
            fritz, count_kind, title=title, players=2, options={}, time_limit_days=3,
            private=private,
        )  # fmt: skip
        play.join(game.pk, other)
        return game

    game("Still on")
    for n in range(12):
        play.resign(game(f"Done {n:02}").pk, fritz)
    play.resign(game("Secret done", private=True).pk, fritz)
    page = client.get(f"/u/{fritz.username}/").content.decode()
    running_part, finished_part = page.split("Latest finished games")
    assert "Still on</a> <em>(running)</em>" in running_part and "Done" not in running_part
    # The newest ten, newest first; the rest and only the public ones in the archive.
    shown = [f"Done {n:02}" for n in range(11, 1, -1)]
    assert [t for t in shown if t in finished_part] == shown
    assert finished_part.index("Done 11") < finished_part.index("Done 02")
    assert "Done 01" not in finished_part and "Secret done" not in page
    assert finished_part.count("<td>lost</td>") == 10  # how each went for Fritz
    link = f"/archive/?player={fritz.username}"
    assert f'href="{link}"' in finished_part
    archive = client.get(link).content.decode()
    assert "Finished games of Fritz" in archive
    assert "Done 00" in archive and "Done 11" in archive and "Still on" not in archive
    assert "Secret done" not in archive
    # The player's own "mine" view still has their private games.
    client.force_login(fritz)
    assert "Secret done" in client.get("/archive/?mine=1").content.decode()
    unknown = client.get("/archive/?player=nobody-here")
    assert unknown.status_code == 400
    assert "There is no player named “nobody-here”." in unknown.content.decode()


def test_settings_need_sign_in(client):
    assert client.get("/settings/").status_code == 302


def test_display_name_cannot_copy_another_players_name(client):
    UserFactory(username="greta", display_name="Greta G.")
    user = UserFactory()
    client.force_login(user)
    for taken in ["greta", "GRETA", "greta g."]:
        response = client.post(
            "/settings/", {"display_name": taken, "time_zone": "UTC", "notify_reminder_hours": "24"}
        )
        assert response.status_code == 200
        assert "already uses this name" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == ""


def test_header_language_switch_changes_the_profile_language(client):
    user = UserFactory(language="en")
    client.force_login(user)
    client.post("/language/", {"language": "de", "next": "/"})
    user.refresh_from_db()
    assert user.language == "de"
    assert '<html lang="de">' in client.get("/").content.decode()


def test_as_my_browser_says_undoes_an_earlier_pick_of_the_header_switch(client):
    user = UserFactory(language="")
    client.force_login(user)
    client.post("/language/", {"language": "en", "next": "/"})
    german_browser = {"Accept-Language": "de"}
    assert '<html lang="en">' in client.get("/", headers=german_browser).content.decode()
    settings = {"language": "", "time_zone": "UTC", "notify_reminder_hours": "24"}
    assert client.post("/settings/", settings).status_code == 302
    user.refresh_from_db()
    assert user.language == ""
    assert '<html lang="de">' in client.get("/", headers=german_browser).content.decode()


def test_saved_message_speaks_the_new_language(client):
    user = UserFactory(language="en")
    client.force_login(user)
    response = client.post(
        "/settings/",
        {
            "language": "de",
            "time_zone": "UTC",
            "notify_reminder_hours": "24",
            "quiet_from": "22:00",
            "quiet_until": "07:00",
        },
        follow=True,
    )
    assert "Deine Einstellungen wurden gespeichert." in response.content.decode()


def test_every_page_says_where_to_write_when_the_site_has_a_contact_address(client, settings):
    settings.CONTACT_EMAIL = "help@example.org"
    # the page that tells a new player to "contact us" if no mail comes
    page = client.get("/accounts/password/reset/").content.decode()
    assert "contact us" in page
    assert '<a href="mailto:help@example.org">Write to help@example.org</a>' in page
    settings.CONTACT_EMAIL = ""
    assert "mailto:help@" not in client.get("/accounts/password/reset/").content.decode()
