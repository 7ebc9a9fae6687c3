import re

import pytest

from games import play
from games.models import Game, Seat
from tests.factories import UserFactory

from .pager import link

pytestmark = pytest.mark.django_db


def test_create_game_from_the_form_with_engine_options(client, count_kind, alice):
    client.force_login(alice)
    page = client.get("/new/count/")
    assert page.status_code == 200
    assert b"Target" in page.content
    response = client.post(
        "/new/count/",
        {"title": "Friday game", "players": 3, "time_limit_days": 7, "option_target": "5"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    assert (game.title, game.players, game.time_limit_days) == ("Friday game", 3, 7)
    assert game.options == {"target": "5"}
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("user__username", flat=True)) == ["alice"]


def test_form_refuses_time_limits_that_are_not_offered(client, count_kind, alice):
    client.force_login(alice)
    response = client.post("/new/count/", {"title": "x", "players": 2, "time_limit_days": 2})
    assert response.status_code == 200
    assert not Game.objects.exists()


def test_creating_needs_an_account(client, count_kind):
    response = client.get("/new/count/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_open_public_games_are_listed_in_the_lobby_private_ones_are_not(client, count_kind, alice):
    play.create_game(
        alice, count_kind, title="Open one", players=2, options={}, time_limit_days=3, private=False
    )
    play.create_game(
        alice,
        count_kind,
        title="Secret one",
        players=2,
        options={},
        time_limit_days=3,
        private=True,
    )
    page = client.get("/").content.decode()
    assert "Open one" in page and "Secret one" not in page


def test_game_starts_when_full_with_seats_drawn_from_the_seed(count_kind, alice, bob):
    carol = UserFactory(username="carol")
    game = play.create_game(
        alice, count_kind, title="t", players=3, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    play.join(game.pk, carol)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert sorted(game.seats.values_list("number", flat=True)) == [0, 1, 2]
    assert game.seats.get(number=0).to_move
    assert game.deadline is not None


def test_join_via_client_and_cannot_join_twice(client, count_kind, alice, bob):
    game = play.create_game(
        alice, count_kind, title="t", players=3, options={}, time_limit_days=3, private=False
    )
    client.force_login(bob)
    assert client.post(f"/g/{game.pk}/join").status_code == 302
    again = client.post(f"/g/{game.pk}/join")
    assert again.status_code == 400
    assert "already joined" in again.content.decode()
    assert game.seats.count() == 2


def test_leave_before_start_and_the_empty_game_is_aborted(client, count_kind, alice):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=False
    )
    client.force_login(alice)
    client.post(f"/g/{game.pk}/leave")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and not game.seats.exists()


def test_cannot_leave_a_running_game(client, started):
    game, first, _ = started
    client.force_login(first)
    assert client.post(f"/g/{game.pk}/leave").status_code == 400
    assert game.seats.count() == 2


def test_private_game_needs_the_signed_invite_link(client, count_kind, alice, bob):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=True
    )
    client.force_login(bob)
    assert client.get(f"/g/{game.pk}/").status_code == 404
    assert client.post(f"/g/{game.pk}/join", {"token": "forged"}).status_code == 404
    assert client.get("/invite/not-a-token/").status_code == 404
    token = game.invite_token()
    page = client.get(f"/invite/{token}/")
    assert page.status_code == 200 and b"Join this game" in page.content
    assert client.post(f"/g/{game.pk}/join", {"token": token}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_creator_sees_the_invite_link_of_a_private_game(client, count_kind, alice):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=True
    )
    client.force_login(alice)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f"/invite/{game.invite_token()}/" in page


def test_invite_link_stays_the_same_across_visits(count_kind, alice, time_machine):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=True
    )
    time_machine.move_to("2026-12-01 10:00:00Z")
    first = game.invite_token()
    time_machine.move_to("2026-12-02 10:00:07Z")
    assert game.invite_token() == first
    assert Game.from_invite_token(first) == game


def test_invite_links_handed_out_with_a_timestamp_still_open(count_kind, alice):
    from django.core import signing

    from games.models import INVITE_SALT

    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=True
    )
    assert Game.from_invite_token(signing.dumps(game.pk, salt=INVITE_SALT)) == game
    assert Game.from_invite_token(signing.dumps(game.pk, salt="another")) is None


def test_my_games_lists_games_where_it_is_my_turn_first(client, count_kind, alice, bob):
    waiting = play.create_game(
        alice, count_kind, title="Waiting", players=2, options={}, time_limit_days=3, private=False
    )
    games = []
    for title in ["First", "Second"]:
        game = play.create_game(
            alice, count_kind, title=title, players=2, options={}, time_limit_days=3, private=False
        )
        play.join(game.pk, bob)
        games.append(game)
    # Make sure alice is the one to move in "Second" only.
    for game in games:
        seat = Seat.objects.get(game=game, user=alice)
        if game.title == "Second" and not seat.to_move or game.title == "First" and seat.to_move:
            mover = game.seats.get(to_move=True).user
            play.act(game.pk, mover, {"type": "add", "n": 1}, None)
            play.act(game.pk, mover, {"type": "end"}, None)
    client.force_login(alice)
    page = client.get("/my/").content.decode()
    assert page.index("Second") < page.index("First")
    assert page.index("Second") < page.index("Waiting")
    assert waiting.title in page


def test_next_game_takes_me_to_the_game_that_waited_longest(
    client, started, count_kind, alice, bob
):
    game, first, second = started
    other = play.create_game(
        first, count_kind, title="Later", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(other.pk, second)
    client.force_login(first)
    # `first` is to move in `game` since before `other` started.
    assert client.get("/next/")["Location"] == f"/g/{game.pk}/"
    client.force_login(second)
    response = client.get("/next/")
    expected = f"/g/{other.pk}/" if Seat.objects.get(game=other, user=second).to_move else "/my/"
    assert response["Location"] == expected


def test_archive_lists_finished_games(client, started):
    game, first, second = started
    play.resign(game.pk, first)
    game.refresh_from_db()
    page = client.get("/archive/").content.decode()
    row = page.split(f">{game.title}</a>", 1)[1].split("</tr>", 1)[0]
    # When it ended and who won, beside the players.
    assert f"<td>{game.finished_at:%-d %B %Y}</td>" in row
    assert row.rstrip().endswith(f"<td>{second.name}</td>")
    # In one's own archive, how it went for oneself.
    client.force_login(first)
    mine = client.get("/archive/?mine=1").content.decode()
    assert "<th>For " in mine and "<td>lost</td>" in mine
    client.force_login(second)
    assert "<td>won</td>" in client.get("/archive/?mine=1").content.decode()
    other = client.get(f"/archive/?player={first.username}").content.decode()
    assert "<td>lost</td>" in other


def test_lobby_links_to_the_rules(client):
    page = client.get("/").content.decode()
    assert 'href="/siam/rules/"' in page


def test_lists_name_the_map_players_know(client):
    from tests.factories import UserFactory, running_game

    game = running_game("siam", [UserFactory(), UserFactory()], {"map": "saba"}, title="Desert")
    client.force_login(game.seats.first().user)
    assert "King of Saba" in client.get("/my/").content.decode()
    assert "King of Saba" in client.get(f"/g/{game.pk}/").content.decode()


def test_my_finished_games_say_who_won_and_who_lost(client, started):
    game, first, second = started
    play.resign(game.pk, first)
    client.force_login(first)
    assert "<td>lost</td>" in client.get("/my/").content.decode()
    client.force_login(second)
    assert "<td>won</td>" in client.get("/my/").content.decode()
    # Names in the running games' list are separated cleanly, with no stray space.
    running = play.create_game(
        second, game.kind_info, title="t", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(running.pk, first)
    page = client.get("/my/").content.decode()
    assert "Alice" in page and "Bob" in page and not re.search(r"\s,", page)


def test_archive_pages_without_counting_every_finished_game(client, count_kind, alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for n in range(32):
        game = play.create_game(
            alice,
            count_kind,
            title=f"Old {n}",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        )
        play.join(game.pk, bob)
        play.resign(game.pk, alice)
    with CaptureQueriesContext(connection) as queries:
        first = client.get("/archive/").content.decode()
    assert not [q for q in queries if "COUNT(" in q["sql"].upper()]
    assert "Old 31" in first and "Old 1<" not in first and link(first, "prev") is None
    second = client.get(link(first, "next")).content.decode()
    assert "Old 1<" in second and "Old 0<" in second and link(second, "next") is None
    assert "Old 31" in client.get(link(second, "prev")).content.decode()
    for junk in ("0", "-3", "abc", "9" * 40, "1.2.3"):
        response = client.get(f"/archive/?after={junk}")
        assert response.status_code == 400
        assert "This link to a page of the archive is broken" in response.content.decode()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_offered_title_follows_the_map_chosen(client, alice, language):
    alice.language = language
    alice.save()
    client.force_login(alice)
    form = client.get("/new/siam/").context["form"]
    offered = form.fields["title"].initial
    base = {"players": 2, "time_limit_days": 3, "option_map": "saba"}
    assert client.post("/new/siam/", {**base, "title": offered}).status_code == 302
    # in the creator's language, as the title offered is
    assert Game.objects.get().title == {"en": "King of Saba", "de": "König von Saba"}[language]
    # A title the creator wrote is kept, whatever the map.
    assert client.post("/new/siam/", {**base, "title": "Saba with friends"}).status_code == 302
    assert Game.objects.latest("pk").title == "Saba with friends"


def test_the_archive_switches_between_all_finished_games_and_mine(client, started):
    game, first, second = started
    play.resign(game.pk, first)
    anonymous = client.get("/archive/").content.decode()
    assert "Only mine" not in anonymous  # nothing of one's own without an account
    client.force_login(first)
    everyone = client.get("/archive/").content.decode()
    assert '<h1 id="archive-h">Finished games</h1>' in everyone
    assert '<a href="/archive/" aria-current="page">All finished games</a>' in everyone
    assert '<a href="/archive/?mine=1">Only mine (private ones too)</a>' in everyone
    mine = client.get("/archive/?mine=1").content.decode()
    assert '<h1 id="archive-h">My finished games</h1>' in mine
    assert '<a href="/archive/?mine=1" aria-current="page">' in mine
    assert f">{game.title}</a>" in mine
    # another player's archive (from their profile) has no such switch
    other = client.get(f"/archive/?player={second.username}").content.decode()
    assert "Only mine (private ones too)" not in other
