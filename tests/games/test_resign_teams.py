import pytest

from games import play, registry
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_resigning_in_the_four_player_team_game_loses_for_the_whole_team():
    users = [UserFactory() for _ in range(4)]
    game = play.create_game(
        users[0],
        registry.get("siam"),
        title="Teams",
        players=4,
        options={"map": "siam"},
        time_limit_days=3,
        private=False,
    )
    for user in users[1:]:
        play.join(game.pk, user)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    play.resign(game.pk, game.seats.get(number=1).user)
    game.refresh_from_db()
    assert game.result["winners"] == [0, 2]
    assert game.result["ranking"][2:] == [1, 3]
