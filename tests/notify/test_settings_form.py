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
    assert 'type="time" name="quiet_from" value="22:00"' in page
    data = {
        "display_name": "Anna",
        "language": "",
        "time_zone": "Europe/Berlin",
        "notify_turn": "on",
        "notify_reminder_hours": "24",
        "notify_game_end": "on",
        "digest_hour": "19",
        "quiet_from": "23:00",
        "quiet_until": "06:30",
        "vacation_until": "",
    }
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
