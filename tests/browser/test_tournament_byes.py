"""A round robin with an odd number of players: the one who sits out a round is named
there, as a Swiss round names its bye (issue 45)."""

import pytest

from tests.tournaments.helpers import make, start
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_round_robin_round_names_the_player_who_sits_out(login, live_server, count_kind):
    tournament = start(
        make(entrants=3, format=Tournament.Format.ROUND_ROBIN, group_size=3, every_seating=False)
    )
    [table] = tournament.round_set.get(number=1).tables.all()
    [resting] = tournament.entrants.exclude(pk__in=table.seating)
    page = login(resting.user, width=390, height=844)
    page.goto(f"{live_server.url}{tournament.get_absolute_url()}")

    rows = page.locator("#round-1-h + ul.round-tables li").all_inner_texts()

    assert len(rows) == 2
    assert any("game running" in row for row in rows)
    assert rows[1].endswith(f"{resting.user.name} bye: sits out this round")
