"""The board and the log come from the cache when nothing they show has changed;
what differs per request (the CSRF token, the click's id) never does, and a
failing cache costs a render, not the page."""

import re
from contextlib import contextmanager
from unittest import mock

import pytest
from django.test import Client
from django.test.signals import template_rendered

from games import fragments, play

from .conftest import post_action

pytestmark = pytest.mark.django_db

BOARD = "games/board_generic.html"


@contextmanager
def renders_of(name):
    names = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(seen)
    try:
        yield lambda: names.count(name)
    finally:
        template_rendered.disconnect(seen)


def test_a_reload_of_an_unchanged_position_does_not_render_the_board(client, started):
    game, first, _ = started
    client.force_login(first)
    with renders_of(BOARD) as renders:
        one = client.get(f"/g/{game.pk}/").content.decode()
        two = client.get(f"/g/{game.pk}/").content.decode()
        assert renders() == 1
        # the same page but for the CSRF tokens and the click ids, new on every request
        strip = re.compile(r"\b([A-Za-z0-9]{64}|[0-9a-f]{32})\b")
        assert strip.sub("", one) == strip.sub("", two)
        post_action(client, game, {"type": "add", "n": 1})
        assert "adds 1." in client.get(f"/g/{game.pk}/").content.decode()
        assert renders() == 2


def test_each_page_gets_its_own_request_id_and_a_csrf_token_that_works(started):
    game, first, _ = started
    ids = []
    for _ in range(2):
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(first)
        page = browser.get(f"/g/{game.pk}/").content.decode()
        request_id = re.search(r'data-request-id="([0-9a-f]+)"', page).group(1)
        # every form on the page carries this page's id, none a cached one
        assert set(re.findall(r'name="request_id" value="([^"]*)"', page)) == {request_id}
        ids.append(request_id)
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', page))
        assert len(tokens) == 1 and fragments.CSRF_MARK not in page
        action = re.search(r'name="action" value="([^"]*)"', page).group(1).replace("&quot;", '"')
        response = browser.post(
            f"/g/{game.pk}/act",
            {"csrfmiddlewaretoken": tokens.pop(), "action": action, "request_id": request_id},
        )
        assert response.status_code in (200, 302), response.content[:300]
        game.refresh_from_db()
    assert ids[0] != ids[1]
    assert game.move_count == 2


def test_the_log_and_the_past_positions_have_their_own_copies(client, started):
    game, first, _ = started
    client.force_login(first)
    for action in ({"type": "add", "n": 1}, {"type": "end"}):
        post_action(client, game, action)
    latest = client.get(f"/g/{game.pk}/").content.decode()
    past = client.get(f"/g/{game.pk}/?at=1").content.decode()
    assert "Position after move 1 of 2" in past and "Position after move" not in latest
    assert past != latest


def test_a_failing_cache_costs_a_render_not_the_page(client, started):
    game, first, _ = started
    client.force_login(first)
    broken = mock.Mock()
    broken.get.side_effect = ConnectionError("cache down")
    broken.set.side_effect = ConnectionError("cache down")
    with mock.patch.object(fragments, "cache", broken), renders_of(BOARD) as renders:
        for _ in range(2):
            assert client.get(f"/g/{game.pk}/").status_code == 200
        assert renders() == 2
    assert broken.get.called and broken.set.called


def test_marking_as_seen_takes_the_marks_off_the_cached_log(client, started):
    game, first, second = started
    client.force_login(second)
    client.get(f"/g/{game.pk}/")  # the first look: nothing is new before it
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    marked = client.get(f"/g/{game.pk}/").content.decode()
    assert "<mark>" in marked and "Since you last looked" in marked
    client.post(f"/g/{game.pk}/seen")
    seen = client.get(f"/g/{game.pk}/").content.decode()  # the same version of the game
    assert "<mark>" not in seen and "Since you last looked" not in seen
