"""Questions put to the table on a game page, read in Chromium (issue 45): the take-back
vote does not look like the cancellation vote below it, its buttons say what they answer,
the asker reads about *their own* turn, and after an agreed take-back the page says so
where the player looks."""

import pytest

from agreements import flows
from agreements.models import Request
from games import play
from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASS = {"type": "pass"}

LOOK = """selector => {
    const style = getComputedStyle(document.querySelector(selector));
    return [style.backgroundColor, style.borderTopStyle, style.borderTopColor];
}"""


@pytest.fixture
def asked(live_server):
    """Anna passed, handing the turn to Ben, and asks to take it back."""
    anna, ben = UserFactory(display_name="Anna"), UserFactory(display_name="Ben")
    game = running_game("siam", [anna, ben], {"map": "siam"}, title="Take-back")
    first = game.seats.get(to_move=True).user
    anna, ben = (anna, ben) if first == anna else (ben, anna)
    anna.display_name, ben.display_name = "Anna", "Ben"
    anna.save(), ben.save()
    play.act(game.pk, anna, PASS, None)
    request = flows.ask(game.pk, anna, Request.Kind.TAKE_BACK)
    return game, anna, ben, request


def test_the_take_back_vote_says_what_it_answers_and_stands_apart(login, live_server, asked):
    game, anna, ben, _ = asked
    page = login(ben, width=390, height=844)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    vote = page.locator("section.agreements")

    assert (
        vote.locator("button[value=yes]").inner_text() == "Yes, Anna may take back their last turn"
    )
    assert vote.locator("button[value=no]").inner_text() == "No, the turn stands"
    assert page.evaluate(LOOK, "section.agreements") != page.evaluate(LOOK, "section.cancel-vote")


def test_the_asker_reads_about_their_own_turn(login, live_server, asked):
    game, anna, _, _ = asked
    page = login(anna, width=390, height=844)
    page.goto(f"{live_server.url}/g/{game.pk}/")

    text = page.locator("section.agreements").inner_text()
    assert "You ask the players' agreement to take back your last turn." in text
    assert "it is your turn again" in text
    assert "their" not in text


def test_after_an_agreed_take_back_the_top_of_the_page_says_what_happened(
    login, live_server, asked
):
    game, anna, ben, request = asked
    flows.answer(game.pk, ben, request.pk, True)

    page = login(anna, width=390, height=844)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    notice = page.locator(".agreement-taken-back")
    assert notice.inner_text() == (
        "Your last turn was taken back, as every player agreed: it is your turn again."
    )
    assert notice.bounding_box()["y"] < 844  # on the first screen, not in the history
    other = login(ben, width=390, height=844)
    other.goto(f"{live_server.url}/g/{game.pk}/")
    assert other.locator(".agreement-taken-back").inner_text() == (
        "Anna's last turn was taken back, as every player agreed: it is their turn again."
    )
    # Said until the game moves on.
    play.act(game.pk, anna, PASS, None)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.locator(".agreement-taken-back").count() == 0
