""" "Plan your next turn" is offered when it can be used; while another player is in the
middle of their turn the game page says why not yet, instead of a link to a planning
page that only says so (issue 45)."""

import pytest

from games import play, replay
from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_planning_is_offered_only_when_the_next_turn_can_be_planned(login, live_server):
    anna, ben = UserFactory(display_name="Anna"), UserFactory(display_name="Ben")
    game = running_game("siam", [anna, ben], {"map": "siam"}, title="Planning")
    engine = game.engine
    state = replay.current_state(game)
    seat = min(engine.active_seats(state))
    mover = game.seats.get(number=seat).user
    waiting = anna if mover == ben else ben
    page = login(waiting, width=390, height=844)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.get_by_role("link", name="Plan your next turn").is_visible()

    # The mover plays a card that leaves them choices to make: mid-turn.
    card = next(
        a
        for a in engine.legal_actions(state, seat)
        if a["type"] == "play" and seat in engine.active_seats(engine.apply(state, seat, a))
    )
    play.act(game.pk, mover, card, None)
    page.goto(f"{live_server.url}/g/{game.pk}/")

    assert page.get_by_role("link", name="Plan your next turn").count() == 0
    assert page.locator(".plan-not-yet").inner_text() == (
        f"You can plan your next turn once {mover.name} has made their choice."
    )
