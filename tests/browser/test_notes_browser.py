"""A private note in Chromium: typed, saved on its own (no button), there after a
reload, and never on the page of the other seat, a spectator or a visitor."""

import pytest

from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NOTE = "Ben holds two Lao cards - keep Korat"


def test_a_note_typed_is_there_after_a_reload_and_nowhere_else(login, live_server, browser):
    users = [UserFactory(display_name="Ada"), UserFactory(display_name="Ben")]
    game = running_game("siam", users, {"map": "siam"})
    url = f"{live_server.url}/g/{game.pk}/"
    page = login(users[0])
    page.goto(url)
    assert page.locator("#note-text").input_value() == ""
    page.locator("#note-text").press_sequentially(NOTE, delay=5)
    page.locator("#note-status", has_text="Saved at").wait_for(timeout=10_000)
    page.reload()
    assert page.locator("#note-text").input_value() == NOTE
    other = login(users[1])
    other.goto(url)
    assert other.locator("#note-text").input_value() == ""  # their own note, empty
    spectator = login(UserFactory(display_name="Cleo"))
    spectator.goto(url)
    visitor = browser.new_page()
    visitor.goto(url)
    for reader in (other, spectator, visitor):
        assert reader.locator(".game-page").count() == 1  # the game page itself
        assert NOTE not in reader.content()
    assert spectator.locator("#note-text").count() == 0
    visitor.close()
