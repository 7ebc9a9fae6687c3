"""Pages go out gzip-compressed to browsers that accept it: the same page, a
fraction of the bytes; the calendar feed and the game record still work, and
nothing is compressed for a client that did not ask."""

import gzip
import json
import re

import icalendar
import pytest
from django.conf import settings

from games import ical, play
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
VOLATILE = re.compile(rb"\b([A-Za-z0-9]{64}|[0-9a-f]{32})\b")  # CSRF tokens, click ids


def test_the_game_page_and_its_refresh_are_compressed(client, started):
    game, first, _ = started
    client.force_login(first)
    for path in (f"/g/{game.pk}/", f"/g/{game.pk}/poll?v=0&c=0"):
        plain = client.get(path, headers={"HX-Request": "true"})
        packed = client.get(path, headers={**GZIP, "HX-Request": "true"})
        assert "Content-Encoding" not in plain
        assert packed["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed["Vary"]
        body = gzip.decompress(packed.content)
        assert VOLATILE.sub(b"", body) == VOLATILE.sub(b"", plain.content)
        assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content) / 2
        # the templates' indentation went before the compression, not after
        assert b">\n    <" not in body


def test_the_calendar_feed_and_the_game_record_still_read_when_compressed(
    client, started, count_kind
):
    game, first, second = started
    # A feed of a few games: gzip pads its header with up to 100 random bytes (Django's
    # BREACH guard) and sends a document of one short event as it is when that loses.
    for title in ("Second", "Third"):
        other = play.create_game(
            first, count_kind, title=title, players=2, options={}, time_limit_days=3,
            private=False,
        )  # fmt: skip
        play.join(other.pk, second)
    url = ical.feed_url(first).removeprefix(settings.SITE_URL)
    response = client.get(url, headers=GZIP)
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    calendar = icalendar.Calendar.from_ical(gzip.decompress(response.content))
    assert len(calendar.walk("VEVENT")) == 3
    client.force_login(first)
    response = client.get(f"/g/{game.pk}/record.json", headers=GZIP)
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(gzip.decompress(response.content))
    assert (data["game"], data["status"]) == (game.pk, "active")


def test_small_answers_and_clients_without_gzip_get_plain_bytes(client, started):
    game, first, _ = started
    client.force_login(first)
    poll = client.get(f"/g/{game.pk}/poll?v={game.version}&c={game.chat_count}", headers=GZIP)
    assert poll.status_code == 204 and "Content-Encoding" not in poll
    other = UserFactory()
    client.force_login(other)
    assert "Content-Encoding" not in client.get("/")
