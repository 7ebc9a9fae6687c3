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


def test_after_a_resignation_in_a_three_player_game_both_others_are_first(client):
    """The page ranks the two winners both first and the player who resigned third, and
    no longer shows the card that was being played as if it still were."""
    users = [UserFactory(display_name=name) for name in ("Bert", "Anna", "Emil")]
    game = play.create_game(
        users[0], registry.get("siam"), title="Saba trio", players=3,
        options={"map": "saba"}, time_limit_days=3, private=False,
    )  # fmt: skip
    for user in users[1:]:
        play.join(game.pk, user)
    game.refresh_from_db()
    names = {seat.number: seat.user.display_name for seat in game.seats.select_related("user")}
    mover = next(seat for seat in game.seats.select_related("user") if seat.to_move)
    play.act(game.pk, mover.user, _a_card(game, mover.number), None)
    client.force_login(users[0])
    assert "is playing" in client.get(f"/g/{game.pk}/").content.decode()
    quitter = next(n for n in names if n != mover.number)
    play.resign(game.pk, users[[u.display_name for u in users].index(names[quitter])])
    page = client.get(f"/g/{game.pk}/").content.decode()
    ranking = page[page.index('<ol class="ranking">') : page.index("</ol>", page.index("ranking"))]
    winners = [n for n in names if n != quitter]
    for seat in winners:
        assert f'<li value="1">{names[seat]}' in ranking
    assert f'<li value="3">{names[quitter]}' in ranking
    assert "is playing" not in page


def _a_card(game, seat):
    """An action that starts playing a card (the card stays in progress after it)."""
    from games import replay

    state = replay.current_state(game)
    engine = game.engine
    for action in engine.legal_actions(state, seat):
        if action["type"] != "play":
            continue
        after = engine.apply(state, seat, action)
        if engine.view(after, None).get("pending"):
            return action
    raise AssertionError("no card leaves a choice to make")
