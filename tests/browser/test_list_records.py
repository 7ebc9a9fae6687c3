"""The record beside each name in the lists of games (issue 45): every player but a
computer has one ("new" before a first finished game), the rating says which title it
is (a King of Saba game is rated as King of Siam), and a quick player's time per move
does not read "0 s"."""

import pytest

from community.models import PlayerStats
from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_name_in_my_games_carries_a_readable_record(login, live_server):
    anna, ben, cleo = (UserFactory(display_name=n) for n in ("Anna", "Ben", "Cleo"))
    PlayerStats.objects.create(
        user=anna, kind="siam", rating=927, rated_games=1, played=1, won=0, ended=1,
        median_move_seconds=0,
    )  # fmt: skip
    running_game("siam", [anna, ben, cleo], {"map": "saba"}, title="Saba game")
    page = login(anna, width=390, height=844)
    page.goto(f"{live_server.url}/my/")
    row = page.locator("tr", has_text="Saba game")

    records = row.locator(".player-record").all_inner_texts()

    assert len(records) == 3  # one per player, none left out
    assert "King of Siam rating 927, won 0 of 1, 100% on time, under a minute per move" in (records)
    assert records.count("new to King of Siam") == 2
