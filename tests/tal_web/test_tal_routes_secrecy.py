"""Every GET route of a running Tal game (read from the URL resolver, history
positions included), fetched as every other seat and as a stranger, shows none
of the secret bid tiles one seat has laid."""

import pytest

from games import play, replay
from tests.games.test_routes import game_routes, other_routes, url

from .conftest import seat_user

pytestmark = pytest.mark.django_db

SECRETS = ("4 + 3", "= <strong>7</strong>", "rings: 4", "rings: 3", "rings: 2", '"rings"')


def test_no_get_route_shows_another_seats_bid_tiles(client, tal_game):
    state = replay.current_state(tal_game)
    bidder = state.current
    user = seat_user(tal_game, bidder)
    for action in (
        {"type": "bid", "group": 1, "rings": 4},
        {"type": "bid", "group": 1, "rings": 3},
        {"type": "bid", "group": 2, "rings": 2},
    ):
        play.act(tal_game.pk, user, action, None)
    tal_game.refresh_from_db()
    client.force_login(user)
    assert "4 + 3 = <strong>7</strong>" in client.get(f"/g/{tal_game.pk}/").content.decode()

    paths = []
    for route, _ in game_routes():
        base = url(route, tal_game)
        paths += [base, base + "?v=0&c=0"]
        paths += [f"{base}?at={n}" for n in range(tal_game.move_count + 1)]
        paths += [f"{base}?text=1", f"{base}?log=all", f"{base}?text=1&fig=o1&slot=3-4"]
    paths += ["/" + r for r in other_routes()] + ["/archive/?mine=1"]
    paths += [f"/u/{s.user.username}/" for s in tal_game.seats.all()]

    for viewer in [s for s in range(tal_game.players) if s != bidder] + [None]:
        client.logout()
        if viewer is not None:
            client.force_login(seat_user(tal_game, viewer))
        fetched = 0
        for path in paths:
            response = client.get(path)
            assert response.status_code < 500, path
            if response.status_code == 200:
                fetched += 1
                body = response.content.decode()
                # The planning board offers the viewer's own next bids: their labels
                # and actions name the rings of the viewer's own tiles (the same values).
                own = path.startswith(f"/g/{tal_game.pk}/plan") and viewer is not None
                for secret in SECRETS[:2] if own else SECRETS:
                    assert secret not in body, (viewer, path, secret)
        assert fetched > tal_game.move_count  # the board and its history really were read
