"""Dates and times in the reader's language and time zone."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from games import play
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_chat_dates_are_german_for_a_german_reader_in_berlin(client, count_kind):
    reader = UserFactory(username="leser", language="de", time_zone="Europe/Berlin")
    other = UserFactory(username="other", language="en", time_zone="America/New_York")
    game = play.create_game(
        reader, count_kind, title="T", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, other)
    moment = datetime.datetime(2026, 1, 12, 13, 7, tzinfo=datetime.UTC)
    with time_machine.travel(moment, tick=False):
        play.post_chat(game.pk, other, "Hallo")
    client.force_login(reader)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "12.01.2026 14:07" in page  # German format, Berlin time (UTC+1 in winter)
    client.force_login(other)
    page = client.get(game.get_absolute_url()).content.decode()
    # English, unambiguous on either side of the Atlantic, New York time.
    assert "12 Jan 2026, 08:07" in page and "01/12/2026" not in page
    assert timezone.get_current_timezone_name() == "UTC"
    # No language in the profile: the browser's German counts, dates included.
    other.language = ""
    other.save()
    page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "12.01.2026 08:07" in page


def test_settings_label_language_is_capitalised(client):
    client.force_login(UserFactory())
    page = client.get("/settings/").content.decode()
    assert ">Language:</label>" in page
