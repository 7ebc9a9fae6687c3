"""The other player's local time (issue 43): a player who chooses to show it has, beside
their name in a game's header, the time where they are and whether it falls in their
quiet hours; a player who does not choose it shows nothing; the cached page follows the
clock."""

import datetime

import pytest
import time_machine
from django.test import Client

from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

# 14:30 in London is 23:30 in Tokyo (no summer time there in March).
AFTERNOON = datetime.datetime(2030, 3, 15, 14, 30, tzinfo=datetime.UTC)


def signed_in(user, language="en"):
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def header(client, game) -> str:
    page = client.get(game.get_absolute_url()).content.decode()
    return page.split('<header class="game-header">', 1)[1].split("</ul>", 1)[0]


@pytest.fixture
def players():
    ada = UserFactory(username="ada", display_name="Ada", time_zone="Europe/London")
    kenji = UserFactory(
        username="kenji",
        display_name="Kenji",
        time_zone="Asia/Tokyo",
        quiet_from=datetime.time(23, 0),
        quiet_until=datetime.time(7, 0),
        show_local_time=True,
    )
    return ada, kenji, running_game("siam", [ada, kenji])


def test_the_other_players_time_is_shown_in_their_zone_with_their_quiet_hours(players):
    ada, kenji, game = players
    with time_machine.travel(AFTERNOON, tick=False) as clock:
        english = header(signed_in(ada), game)
        assert "local time 23:30 · quiet hours until 07:00" in english
        german = header(signed_in(ada, "de"), game)
        assert "Ortszeit 23:30 · Ruhezeit bis 07:00" in german
        # The cached page moves on with the clock: half an hour earlier in Tokyo's
        # evening, no quiet hours.
        clock.move_to(AFTERNOON - datetime.timedelta(hours=1))
        earlier = header(signed_in(ada), game)
        assert "local time 22:30</span>" in earlier and "quiet hours" not in earlier
        # Ada did not choose to show hers: nothing beside her name.
        assert earlier.count('class="local-time') == 1


def test_a_player_who_does_not_choose_it_shows_no_time(players):
    ada, kenji, game = players
    kenji.show_local_time = False
    kenji.save()
    with time_machine.travel(AFTERNOON, tick=False):
        assert "local-time" not in header(signed_in(ada), game)


def test_the_choice_is_on_the_settings_page(players):
    ada, kenji, game = players
    page = signed_in(ada).get("/settings/").content.decode()
    assert 'name="show_local_time"' in page and "Show my local time to other players" in page
