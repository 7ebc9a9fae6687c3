"""Moves a player watches arrive on the open game page are no news: the next look does
not greet them with "Since you last looked: N new moves" (issue 45)."""

import pytest

from games import play, replay
from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_moves_watched_on_the_open_page_are_not_news_afterwards(login, live_server):
    users = [UserFactory(), UserFactory()]
    game = running_game("siam", users, {"map": "siam"})
    state = replay.current_state(game)
    mover = game.seats.get(number=min(game.engine.active_seats(state))).user
    watcher = next(u for u in users if u != mover)
    page = login(watcher)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    shown = page.get_attribute("#game-poll", "hx-get")

    play.act(game.pk, mover, {"type": "pass"}, None)
    # The page fetches the move (its poll, or the live stream's fetch).
    page.wait_for_function(
        "shown => document.getElementById('game-poll').getAttribute('hx-get') !== shown",
        arg=shown,
        timeout=15_000,
    )
    assert page.locator(".since").count() == 0
    page.reload()
    assert page.locator(".since").count() == 0


def test_moves_made_while_the_player_was_away_are_news(login, live_server):
    users = [UserFactory(), UserFactory()]
    game = running_game("siam", users, {"map": "siam"})
    state = replay.current_state(game)
    mover = game.seats.get(number=min(game.engine.active_seats(state))).user
    watcher = next(u for u in users if u != mover)
    page = login(watcher)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    page.goto(f"{live_server.url}/")  # away

    play.act(game.pk, mover, {"type": "pass"}, None)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.locator(".since").count() == 1
