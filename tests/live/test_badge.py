"""The menu's badge as its own small answer (what a page fetches when its stream says
the badge may have changed), and the stream of a player's other pages."""

from __future__ import annotations

import pytest

from games import play
from lobby import invites
from tests.factories import UserFactory

from .test_streams import game, seat_user, to_move  # noqa: F401  (game: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_badge_answer_is_the_menus_badge(client, game):  # noqa: F811
    waiting = to_move(game)
    client.force_login(waiting)
    body = client.get("/live/badge").content.decode()
    assert body.startswith('<span id="turn-badge">') and ">1</span>" in body
    assert body in client.get("/my/").content.decode()  # the same drawing as the menu's
    client.logout()
    assert client.get("/live/badge").status_code == 204


def test_a_players_other_pages_hear_of_their_badge(hub_mode, game, streams):  # noqa: F811
    anna = seat_user(game, 0)
    page = streams("/live/me", anna)
    assert page.status == 200
    cleo = UserFactory(username="cleo")
    cleos = streams("/live/me", cleo)
    waiting = play.create_game(
        anna, game.kind_info, title="Waiting", players=2, options={}, time_limit_days=3,
        private=False,
    )  # fmt: skip
    assert page.next(timeout=3)["event"] == "badge"  # her new game in "My games"
    invites.invite(waiting.pk, anna, "cleo")
    assert cleos.next(timeout=3)["event"] == "badge"
    assert streams("/live/me").status == 204  # nobody signed in: nothing to tell
    assert streams("/live/me", anna, accept=False).status == 406


def test_the_page_parts_draw_the_right_stream(client, game, asgi_server):  # noqa: F811
    import http.client

    from .conftest import cookie_of

    anna = seat_user(game, 0)

    def page(path, user=None) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", asgi_server.port, timeout=10)
        conn.request("GET", path, headers={"Cookie": cookie_of(user)} if user else {})
        body = conn.getresponse().read().decode()
        conn.close()
        return body

    drawn = page(f"/g/{game.pk}/", anna)
    assert f'sse-connect="/g/{game.pk}/live?v={game.version}&amp;c={game.chat_count}"' in drawn
    assert drawn.count("data-live ") == 1 and 'data-changes="/g/' in drawn
    lobby = page("/", anna)
    assert 'sse-connect="/live/me"' in lobby and lobby.count("data-live ") == 1
    assert "data-live" not in page("/")  # nobody signed in: nothing to tell
    spectator = page(f"/g/{game.pk}/")
    assert "data-live" in spectator and "data-badge" not in spectator
    # Served by WSGI (no streams there), the pages poll as before, without trying.
    client.force_login(anna)
    assert "data-live" not in client.get(f"/g/{game.pk}/").content.decode()
    assert "data-live" not in client.get("/").content.decode()


def test_the_keeper_counts_every_badge_in_one_query(game, django_assert_num_queries):  # noqa: F811
    from types import SimpleNamespace

    from games import lists
    from live import keeper

    players = [s.user for s in game.seats.all()] + [UserFactory()]
    with django_assert_num_queries(1):
        counted = keeper.badges_of([u.pk for u in players])
    assert counted == {u.pk: lists.waiting_count(SimpleNamespace(pk=u.pk)) for u in players}
    assert sorted(counted.values()) == [0, 0, 1]
