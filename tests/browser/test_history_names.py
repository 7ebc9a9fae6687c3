"""In the browser (issue 45): a move that wrote several history lines (a 1 vs 1 card's
pick and the swap it makes) gives each line its own name, in English and German, at
phone size; each still links to the position after that move."""

import pytest

from games import play, replay
from tests.factories import UserFactory, running_game

from .test_newcomer_features import PHONE, no_sideways_scroll, shot, speaking

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def swap_played(game):
    """The seat to move plays 1 vs 1 and carries it out: the second pick and the swap
    are two lines of one move."""
    for _ in range(6):
        game.refresh_from_db()
        state = replay.current_state(game)
        seat = min(game.engine.active_seats(state))
        user = game.seats.get(number=seat).user
        actions = game.engine.legal_actions(state, seat)
        card = [a for a in actions if a == {"type": "play", "card": "one_vs_one"}]
        action = card[0] if card else actions[0]
        play.act(game.pk, user, action, None)
        if action["type"] == "take":
            return
    pytest.fail("1 vs 1 was not carried out")


def test_every_history_line_has_a_name_of_its_own(login, live_server, artifacts):
    ada, bo = UserFactory(display_name="Ada"), UserFactory(display_name="Bo")
    game = running_game("siam", [ada, bo])
    swap_played(game)
    for language, move in (("en", "move"), ("de", "Zug")):
        speaking(ada, language)
        page = login(ada, **PHONE)
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        names = [n.strip() for n in page.locator(".log-entries .move-no").all_inner_texts()]
        assert len(names) == len(set(names)), names
        assert f"{move} 3a" in names and f"{move} 3b" in names, names
        pair = page.locator(".log-entries a.move-no", has_text="3")
        assert {pair.nth(i).get_attribute("href") for i in range(2)} == {"?at=3"}
        no_sideways_scroll(page)
        page.locator("#log-h").scroll_into_view_if_needed()
        shot(page, artifacts, f"history-names-{language}-390", full_page=False)
