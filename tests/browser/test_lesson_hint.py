"""In the browser (issue 45): in the first game of King of Siam, "Suggest a move" names
what the lesson teaches, a card to play on the first turn (not a pass), and says why,
in English and German, at phone size."""

import json

import pytest

from games.models import Game
from tests.factories import UserFactory

from .test_newcomer_features import PHONE, no_sideways_scroll, shot, speaking
from .test_siam_play import BOARD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "start", "why"),
    [
        ("en", "First game of King of Siam", "the faction with the most followers in"),
        ("de", "König von Siam: erste Partie", "die Fraktion mit den meisten Anhängern in"),
    ],
)
def test_the_first_games_hint_suggests_a_card_and_says_why(
    language, start, why, login, live_server, artifacts
):
    learner = UserFactory(display_name="Lena")
    speaking(learner, language)
    page = login(learner, **PHONE)
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name=start).click()
    page.wait_for_selector(BOARD)
    assert Game.objects.get().seats.get(user=learner).to_move
    page.locator("form[data-hint] button").click()
    reason = page.locator(".hint-text .hint-reason")
    reason.wait_for()
    assert why in reason.inner_text()
    marked = page.locator("#board-area .hinted")
    assert json.loads(marked.get_attribute("data-act"))["type"] == "play"
    no_sideways_scroll(page)
    page.locator(".hint-form").scroll_into_view_if_needed()
    shot(page, artifacts, f"lesson-hint-{language}-390", full_page=False)
