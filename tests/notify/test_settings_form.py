import datetime

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_notification_preferences_are_on_the_settings_page(users):
    anna = users[0]
    client = Client()
    client.force_login(anna)
    page = client.get("/settings/").content.decode()
    for field in ("quiet_from", "quiet_until", "digest_hour", "notify_last_warning"):
        assert f'name="{field}"' in page
    # Quiet hours are picked with the browser's time picker, as hours and minutes.
    anna.quiet_from, anna.quiet_until = datetime.time(22, 0), datetime.time(7, 0)
    anna.save()
    page = client.get("/settings/").content.decode()
    assert 'type="time" name="quiet_from" value="22:00"' in page
    data = _settings(digest_hour="19", quiet_from="23:00", quiet_until="06:30")
    assert client.post("/settings/", data).status_code == 302
    anna.refresh_from_db()
    assert anna.digest_hour == 19 and anna.quiet_until == datetime.time(6, 30)
    assert not anna.notify_last_warning


def test_the_in_tab_turn_notices_are_also_set_on_the_settings_page(users):
    client = Client()
    client.force_login(users[0])
    page = client.get("/settings/").content.decode()
    assert "data-tab-notices" in page
    assert 'data-notice="sound"' in page and 'data-notice="notify"' in page
    # Off until this browser's player ticks them (nothing is checked in the HTML).
    assert "checked" not in page.split("data-tab-notices", 1)[1].split("</details>", 1)[0]


def _settings(**changes):
    data = {
        "display_name": "Anna",
        "language": "",
        "time_zone": "Europe/Berlin",
        "notify_turn": "on",
        "notify_reminder_hours": "24",
        "notify_game_end": "on",
        "digest_hour": "",
        "quiet_from": "22:00",
        "quiet_until": "07:00",
        "vacation_until": "",
    }
    return {**data, **changes}


def test_quiet_hours_are_turned_off_by_leaving_both_times_empty(users):
    from notify import schedule

    anna = users[0]
    anna.quiet_from, anna.quiet_until = datetime.time(22, 0), datetime.time(7, 0)
    anna.save()
    client = Client()
    client.force_login(anna)
    page = client.get("/settings/").content.decode()
    assert "Both empty, as for a new account: e-mail at any hour." in page
    assert (
        'name="quiet_from" value="22:00"' in page
        and "required" not in page.split('name="quiet_from"', 1)[1].split(">", 1)[0]
    )
    assert client.post("/settings/", _settings(quiet_from="", quiet_until="")).status_code == 302
    anna.refresh_from_db()
    assert anna.quiet_from is None and anna.quiet_until is None
    midnight = datetime.datetime(2026, 12, 2, 0, 0, tzinfo=datetime.UTC)
    assert schedule.send_time(anna, midnight) == midnight  # at any hour
    # One time alone is refused with a clear message, and nothing changes.
    response = client.post("/settings/", _settings(quiet_from="23:00", quiet_until=""))
    assert response.status_code == 200
    assert "Give both times of your quiet hours, or leave both empty for none." in (
        response.content.decode()
    )
    anna.refresh_from_db()
    assert anna.quiet_from is None


def test_each_form_of_the_settings_page_has_a_button_of_its_own_name(users):
    """A screen reader lists the page's buttons by name: two "Save"s would be two of one."""
    import re
    from collections import Counter

    client = Client()
    client.force_login(users[0])
    page = client.get("/settings/").content.decode()
    names = Counter(re.findall(r"<button[^>]*>([^<]+)</button>", page))
    assert names["Save"] == 1 and names["Save these names"] == 1
