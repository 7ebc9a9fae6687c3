"""A finished game's page is served whole from the cache like a running one's
(games.pagecache), and what its rematch panel says shows on the next load.

These tests switch PAGE_CACHE_CHECK off: they look at what a hit really serves.
"""

from contextlib import contextmanager
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test.signals import template_rendered

from community import cancel, rematch
from community.models import Rematch
from games import play
from games.models import Game

from .helpers import finish_by_play

pytestmark = pytest.mark.django_db

PROPOSE, ACCEPT = "Propose a rematch", "Accept the rematch"


@pytest.fixture(autouse=True)
def _real_hits(settings):
    settings.PAGE_CACHE_CHECK = False


@contextmanager
def page_renders():
    names = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(seen)
    try:
        yield lambda: names.count("games/game.html")
    finally:
        template_rendered.disconnect(seen)


def page(client, game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def finished(started):
    game, first, second = started
    return finish_by_play(game), first, second


def test_a_reload_of_a_finished_game_renders_nothing(client, finished):
    game, first, _second = finished
    client.force_login(first)
    with page_renders() as renders:
        one = page(client, game)
        two = page(client, game)
        assert renders() == 1
    assert PROPOSE in one and PROPOSE in two


def test_a_reload_of_a_game_cancelled_by_agreement_renders_nothing(client, started):
    game, first, second = started
    cancel.vote(game.pk, first, True)
    cancel.vote(game.pk, second, True)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    client.force_login(first)
    with page_renders() as renders:
        assert "Aborted" in page(client, game)
        assert "Aborted" in page(client, game)
        assert renders() == 1


def test_an_offer_then_its_acceptance_show_on_the_next_load(client, finished):
    game, first, second = finished
    client.force_login(first)
    assert PROPOSE in page(client, game)
    rematch.answer(game.pk, second, True)
    shown = page(client, game)
    assert ACCEPT in shown and f"Accepted so far: {second.name}" in shown
    offer = rematch.answer(game.pk, first, True)
    shown = page(client, game)
    assert "The rematch has started." in shown and offer.new_game.get_absolute_url() in shown
    assert ACCEPT not in shown


def test_a_refusal_shows_on_the_next_load(client, finished):
    game, first, second = finished
    rematch.answer(game.pk, first, True)
    client.force_login(first)
    assert "Accepted so far" in page(client, game)
    rematch.answer(game.pk, second, False)
    assert f"{second.name} declined the rematch." in page(client, game)


def test_the_offer_is_in_the_key_even_where_the_game_row_stays_the_same(client, finished):
    # rematch.answer moves the game's version; the key holds the offer's rows anyway.
    # (Seen by its proposer, whose menu's badge does not count their own offer.)
    game, _first, second = finished
    offer = rematch.answer(game.pk, second, True)
    client.force_login(second)
    assert f"Accepted so far: {second.name}" in page(client, game)
    Rematch.objects.filter(pk=offer.pk).update(status=Rematch.Status.DECLINED)
    assert "The rematch was declined." in page(client, game)


def test_the_window_closing_shows_without_any_change_to_the_game(client, finished):
    game, first, second = finished
    window = timedelta(days=settings.REMATCH_DAYS)
    with time_machine.travel(game.finished_at + window - timedelta(minutes=1), tick=False):
        client.force_login(first)
        assert PROPOSE in page(client, game)
    with time_machine.travel(game.finished_at + window + timedelta(minutes=1), tick=False):
        client.force_login(first)  # after travelling: a session lasts two weeks
        assert PROPOSE not in page(client, game)


def test_a_chat_line_after_the_end_shows_on_the_next_load(client, finished):
    game, first, second = finished
    client.force_login(first)
    page(client, game)
    play.post_chat(game.pk, second, "good game")
    assert "good game" in page(client, game)
