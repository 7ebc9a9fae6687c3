"""The private calendar feed: one event per running game at its deadline."""

import icalendar
import pytest
import time_machine
from django.conf import settings
from django.core import signing

from games import ical, play
from games.models import CalendarKey
from tests.factories import UserFactory

from .clock import DAY, START, mover, new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(db):
    return UserFactory(display_name="Alice")


def _feed(client, url):
    path = url.removeprefix(settings.SITE_URL)
    return client.get(path)


def _events(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(response.content)
    return {str(e["url"]): e for e in calendar.walk("VEVENT")}


def test_one_event_per_running_game_at_its_deadline(client, count_kind, player):
    with time_machine.travel(START, tick=False) as clock:
        first = new_game(count_kind, [player, UserFactory()])
        clock.shift(DAY)
        second = new_game(count_kind, [player, UserFactory()], time_limit_days=7)
        new_game(count_kind, [UserFactory(), UserFactory()])  # not Alice's
        play.create_game(  # waiting for players: no deadline yet
            player,
            count_kind,
            title="Open",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        )
        finished = new_game(count_kind, [player, UserFactory()])
        play.resign(finished.pk, player)
        events = _events(_feed(client, ical.feed_url(player)))
    base = settings.SITE_URL
    assert set(events) == {f"{base}/g/{first.pk}/", f"{base}/g/{second.pk}/"}
    event = events[f"{base}/g/{first.pk}/"]
    assert event.decoded("dtstart") == START + 3 * DAY
    assert events[f"{base}/g/{second.pk}/"].decoded("dtstart") == START + DAY + 7 * DAY
    assert "Clock test" in str(event["summary"])
    assert f"{base}/g/{first.pk}/" in str(event["description"])
    your_move = "Your move is due" if mover(first) == player else "Next move due"
    assert str(event["summary"]).startswith(your_move)


def test_the_event_follows_the_deadline_when_a_move_is_made(client, count_kind, player):
    with time_machine.travel(START, tick=False) as clock:
        game = new_game(count_kind, [player, UserFactory()])
        url = ical.feed_url(player)
        uid = str(next(iter(_events(_feed(client, url)).values()))["uid"])
        clock.shift(DAY)
        first = mover(game)
        play.act(game.pk, first, {"type": "add", "n": 1}, None)
        play.act(game.pk, first, {"type": "end"}, None)  # the turn changes hands
        event = next(iter(_events(_feed(client, url)).values()))
    assert str(event["uid"]) == uid  # the same event, moved
    assert event.decoded("dtstart") == START + 4 * DAY


def test_a_bad_token_gets_404(client, player):
    good = ical.feed_url(player).removeprefix(settings.SITE_URL)
    token = good.removeprefix("/calendar/").removesuffix(".ics")
    assert client.get(good).status_code == 200
    assert client.get("/calendar/nonsense.ics").status_code == 404
    assert client.get(f"/calendar/{token[:-2]}xx.ics").status_code == 404
    # Signed, but another user's id with Alice's secret.
    other = UserFactory()
    ical.feed_url(other)
    secret = CalendarKey.objects.get(user=player).secret
    forged = signing.Signer(salt=ical.SALT).sign_object([other.pk, secret])
    assert client.get(f"/calendar/{forged}.ics").status_code == 404
    # The right content under another salt is not a calendar token.
    wrong_salt = signing.Signer(salt="games.invite").sign_object([player.pk, secret])
    assert client.get(f"/calendar/{wrong_salt}.ics").status_code == 404


def test_a_new_link_revokes_the_old_one(client, player):
    old = ical.feed_url(player)
    assert ical.feed_url(player) == old  # stable until replaced
    client.force_login(player)
    page = client.get("/settings/").content.decode()
    assert old in page and "New link (the old one stops working)" in page
    response = client.post("/settings/calendar/new/")
    assert response.status_code == 302
    new = ical.feed_url(player)
    assert new != old
    assert new in client.get("/settings/").content.decode()
    client.logout()
    assert _feed(client, old).status_code == 404
    assert _feed(client, new).status_code == 200


def test_a_new_link_needs_a_signed_in_post(client, player):
    old = ical.feed_url(player)
    assert client.post("/settings/calendar/new/").status_code == 302  # to the sign-in page
    client.force_login(player)
    assert client.get("/settings/calendar/new/").status_code == 405
    assert ical.feed_url(player) == old


def test_the_feed_is_in_the_players_language(client, count_kind, player):
    player.language = "de"
    player.save()
    new_game(count_kind, [player, UserFactory()])
    calendar = icalendar.Calendar.from_ical(_feed(client, ical.feed_url(player)).content)
    summary = str(next(iter(calendar.walk("VEVENT")))["summary"])
    assert summary.startswith(("Du bist am Zug", "Nächster Zug fällig"))
