"""A rematch is arranged right after a game: within REMATCH_DAYS of its end. Then an
offer nobody decided has lapsed: nobody can accept it, "My games" stops listing it,
and nobody can propose a new one."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings

from community import rematch
from community.models import Rematch, RematchAnswer
from games.models import Game

from .helpers import finish_by_play

pytestmark = pytest.mark.django_db

WAITING = "Rematches waiting for your answer"


def window() -> timedelta:
    return timedelta(days=settings.REMATCH_DAYS)


@pytest.fixture
def offered(started):
    """A finished game whose second player proposed a rematch the first has not answered."""
    game, first, second = started
    finish_by_play(game)
    game.refresh_from_db()
    offer = rematch.answer(game.pk, second, True)
    return game, first, second, offer


def page(client, user, url: str) -> str:
    client.force_login(user)  # after travelling: a session lasts two weeks
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_an_offer_is_open_until_the_window_closes(client, offered):
    game, first, _second, _offer = offered
    with time_machine.travel(game.finished_at + window() - timedelta(seconds=1), tick=False):
        assert WAITING in page(client, first, "/my/")
        shown = page(client, first, game.get_absolute_url())
        assert "Accept the rematch" in shown and "The offer is open until" in shown
    with time_machine.travel(game.finished_at + window(), tick=False):
        assert WAITING not in page(client, first, "/my/")
        shown = page(client, first, game.get_absolute_url())
        assert "Accept the rematch" not in shown and "Propose a rematch" not in shown
        assert "The rematch offer lapsed before everyone had accepted it." in shown


def test_accepting_a_lapsed_offer_is_refused_and_starts_no_game(client, offered):
    game, first, _second, offer = offered
    with time_machine.travel(game.finished_at + window() + timedelta(days=60), tick=False):
        client.force_login(first)
        response = client.post(f"/g/{game.pk}/rematch", {"answer": "yes"})
        assert response.status_code == 409
        assert "The time for a rematch is over" in response.content.decode()
        with pytest.raises(rematch.Lapsed):
            rematch.answer(game.pk, first, False)  # nor declined: it is over already
    assert Game.objects.count() == 1
    offer.refresh_from_db()
    assert offer.status == Rematch.Status.PENDING and offer.new_game is None
    assert not RematchAnswer.objects.filter(user=first).exists()


def test_a_rematch_can_be_proposed_only_within_the_window(client, started):
    game, first, _second = started
    finish_by_play(game)
    game.refresh_from_db()
    with time_machine.travel(game.finished_at + window() - timedelta(hours=1), tick=False):
        shown = page(client, first, game.get_absolute_url())
        assert "Propose a rematch" in shown and "A rematch can be arranged until" in shown
    with time_machine.travel(game.finished_at + window(), tick=False):
        assert "Propose a rematch" not in page(client, first, game.get_absolute_url())
        response = client.post(f"/g/{game.pk}/rematch", {"answer": "yes"})
        assert response.status_code == 409
    assert not Rematch.objects.exists()


def test_a_decided_rematch_is_shown_as_it_went_for_ever(client, offered):
    game, first, _second, _offer = offered
    rematch.answer(game.pk, first, True)
    with time_machine.travel(game.finished_at + 3 * window(), tick=False):
        shown = page(client, first, game.get_absolute_url())
        assert "The rematch has started." in shown and "lapsed" not in shown


def test_a_repeated_click_on_a_started_rematch_still_leads_to_it_after_the_window(offered):
    game, first, _second, _offer = offered
    started = rematch.answer(game.pk, first, True)
    assert started.status == Rematch.Status.STARTED
    with time_machine.travel(game.finished_at + 2 * window(), tick=False):
        again = rematch.answer(game.pk, first, True)  # a retry: the same answer
    assert again.new_game == started.new_game
