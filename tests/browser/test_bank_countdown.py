"""The game page counts every running bank down in the browser, with no request."""

import re
from datetime import timedelta

import pytest

from games import play, registry
from games.clock import Pace
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

H = timedelta(hours=1)


def test_the_bank_counts_down_without_a_request(login, live_server):
    ada, ben = UserFactory(display_name="Ada"), UserFactory(display_name="Ben")
    game = play.create_game(
        ada, registry.get("siam"), title="Banked", players=2, options={"map": "siam"},
        time_limit_days=3, private=False, pace=Pace(4 * H, 1 * H, 8 * H),
    )  # fmt: skip
    play.join(game.pk, ben)
    page = login(ada, width=390, height=844)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    running = page.locator(".bank.running .bank-left")
    assert page.locator(".bank .bank-left").count() == 2  # both seats' banks
    before = running.inner_text()
    assert re.fullmatch(r"0[34]:\d\d:\d\d", before)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.wait_for_function(
        "before => document.querySelector('.bank.running .bank-left').textContent !== before",
        arg=before,
        timeout=5_000,
    )
    assert running.inner_text() < before  # it went down
    assert requests == []
    # The waiting seat's bank stands.
    assert page.locator(".bank:not(.running) .bank-left").inner_text() == "04:00:00"
