"""Automatch in Chromium: two players in two browsers post tickets that fit and are
both taken into the same new game without reloading; a ticket that does not fit stays
apart. The ticket form and the lobby's count at phone size, English and German."""

import pytest

from automatch.models import Ticket
from games.models import Game
from tests.factories import UserFactory

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def post_ticket(page, url, pace="3 days"):
    page.goto(f"{url}/automatch/new/siam")
    page.get_by_label("Map").select_option("siam")
    page.get_by_label("3", exact=True).uncheck()
    page.get_by_label("4", exact=True).uncheck()
    page.get_by_label("Time per move").select_option(label=pace)
    page.get_by_role("button", name="Look for a game").click()
    page.wait_for_url(f"{url}/automatch/?since=*")


def test_two_players_who_fit_are_taken_into_one_new_game(browser, live_server, login):
    anna, ben, cleo = UserFactory(), UserFactory(), UserFactory()
    cleo_page = login(cleo)
    post_ticket(cleo_page, live_server.url, pace="7 days")  # another pace: stays apart
    anna_page = login(anna)
    post_ticket(anna_page, live_server.url)
    check_axe(anna_page, "the automatch page with a ticket")
    ben_page = login(ben)
    post_ticket(ben_page, live_server.url)
    game = Game.objects.get()
    # Anna's page, open since before Ben came, goes to the game by itself.
    for page in (anna_page, ben_page):
        page.wait_for_url(f"{live_server.url}{game.get_absolute_url()}", timeout=10_000)
    assert {seat.user for seat in game.seats.all()} == {anna, ben}
    assert Ticket.objects.get(user=cleo).status == Ticket.Status.OPEN
    assert cleo_page.url.startswith(f"{live_server.url}/automatch/")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_ticket_form_and_the_lobby_count_on_a_phone(
    browser, live_server, login, artifacts, language
):
    Ticket.objects.create(
        user=UserFactory(),
        kind="siam",
        options={"map": "saba"},
        player_counts=[2, 3],
        time_limit_days=3,
        expires_at="2099-01-01T00:00:00Z",
    )
    page = login(UserFactory(language=language), width=390, height=844)
    page.goto(f"{live_server.url}/automatch/new/tal")
    check_axe(page, f"ticket form ({language})")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / f"automatch-form-{language}.png"), full_page=True)
    page.goto(f"{live_server.url}/")
    count = page.locator(".automatch-lobby")
    expected = "1 Spieler sucht" if language == "de" else "1 player looking"
    assert expected in count.inner_text()
    count.scroll_into_view_if_needed()
    count.screenshot(path=str(artifacts / f"automatch-lobby-{language}.png"))
