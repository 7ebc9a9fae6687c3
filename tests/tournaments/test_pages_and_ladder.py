"""What a player sees: the lobby lists open tournaments, My games the player's own, a
tournament game says which round it is; the ladder pairs near ratings, K at a time."""

from __future__ import annotations

import pytest
from django.utils import timezone

from community.models import PlayerStats
from games import play
from games.models import Game
from tests.factories import UserFactory
from tournaments import ladders, running
from tournaments.models import Ladder, LadderGame, LadderPlayer, Tournament

from .helpers import make, play_to_the_end, running_games, start

pytestmark = pytest.mark.django_db


def test_a_new_user_finds_an_open_tournament_in_the_lobby_and_enters_it(client, count_kind):
    tournament = make(entrants=1, name="Autumn open")
    home = client.get("/").content.decode()
    assert "Autumn open" in home and tournament.get_absolute_url() in home
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Sign in to enter this tournament." in page
    newcomer = UserFactory(username="newcomer")
    client.force_login(newcomer)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Enter this tournament" in page
    response = client.post(f"/tournaments/{tournament.pk}/enter", follow=True)
    assert "You have entered the tournament." in response.content.decode()
    my_games = client.get("/my/").content.decode()
    assert "My tournaments and ladders" in my_games and "Autumn open" in my_games
    # entering twice is a clean refusal, not an error page
    again = client.post(f"/tournaments/{tournament.pk}/enter", follow=True)
    assert "You have entered this tournament already." in again.content.decode()


def test_the_creator_starts_early_and_a_game_says_its_round(client, count_kind):
    creator = UserFactory()
    tournament = make(creator=creator, entrants=2, name="Quick cup")
    client.force_login(creator)
    with_capture = client.post(f"/tournaments/{tournament.pk}/start", follow=True)
    assert "The sign-up is closed" in with_capture.content.decode()
    running.advance(tournament.pk)  # beat (after the commit, in production at once)
    [game] = running_games(tournament)
    client.force_login(game.seats.first().user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Round 1 of the tournament “Quick cup”." in page
    # Served from the page cache now, compared with a fresh drawing (PAGE_CACHE_CHECK).
    assert "Round 1 of the tournament" in client.get(game.get_absolute_url()).content.decode()
    detail = client.get(tournament.get_absolute_url()).content.decode()
    assert game.get_absolute_url() in detail and "game running" in detail


def test_a_stranger_cannot_start_or_withdraw_for_others(client, count_kind):
    tournament = make(entrants=2)
    client.force_login(UserFactory())
    client.post(f"/tournaments/{tournament.pk}/start")
    client.post(f"/tournaments/{tournament.pk}/withdraw")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SIGNUP and tournament.entrants.count() == 2
    assert client.post("/tournaments/999999/enter").status_code == 404
    assert client.get("/tournaments/999999/").status_code == 404


def test_creating_through_the_form(client, count_kind):
    creator = UserFactory()
    client.force_login(creator)
    form = client.get("/tournaments/new/count/").content.decode()
    assert "Players per table" in form and "Target" in form
    data = {
        "name": "Form cup",
        "table_size": 3,
        "format": "round_robin",
        "group_size": 6,  # no design for six at tables of three
        "every_seating": "on",
        "finals": 0,
        "time_limit_days": 3,
        "timeout_policy": "lose",
        "withdrawal": "forfeit",
        "min_entrants": 3,
        "max_entrants": 9,
        "signup_days": 3,
        "option_target": "10",
    }
    refused = client.post("/tournaments/new/count/", data)
    assert refused.status_code == 200 and "a group can have 3, 4, 5, 7, 9 players" in (
        refused.content.decode()
    )
    assert not Tournament.objects.exists()
    data["group_size"] = 9
    created = client.post("/tournaments/new/count/", data)
    tournament = Tournament.objects.get()
    assert created["Location"] == tournament.get_absolute_url()
    assert tournament.table_size == 3 and tournament.options == {"target": "10"}
    assert tournament.signup_closes > timezone.now()
    assert client.get("/tournaments/new/nosuchgame/").status_code == 404


def rated(user, kind, rating):
    PlayerStats.objects.update_or_create(user=user, kind=kind, defaults={"rating": rating})
    return user


@pytest.fixture
def ladder(count_kind):
    return Ladder.objects.create(name="Count ladder", kind="count", table_size=2)


def test_the_ladder_hands_out_games_near_the_players_rating(ladder):
    low = [rated(UserFactory(), "count", r) for r in (900, 920)]
    high = [rated(UserFactory(), "count", r) for r in (1500, 1530)]
    for user in [*low, *high]:
        ladders.join(ladder.pk, user, 1)
    games = ladders.pair(ladder.pk)
    pairs = sorted(sorted(s.user_id for s in g.seats.all()) for g in games)
    assert pairs == sorted([sorted(u.pk for u in low), sorted(u.pk for u in high)])
    assert all(g.status == Game.Status.ACTIVE for g in games)
    assert LadderGame.objects.filter(ladder=ladder).count() == 2
    assert ladders.pair(ladder.pk) == []  # everyone has the one game they asked for


def test_k_games_at_once_and_leaving(ladder):
    players = [rated(UserFactory(), "count", 1000 + 10 * n) for n in range(3)]
    ladders.join(ladder.pk, players[0], 2)
    ladders.join(ladder.pk, players[1], 2)
    ladders.join(ladder.pk, players[2], 1)
    assert len(ladders.pair(ladder.pk)) == 1
    assert len(ladders.pair(ladder.pk)) == 1
    counts = ladders.running_counts(ladder, [p.pk for p in players])
    assert counts[players[0].pk] <= 2 and counts[players[1].pk] <= 2
    assert counts.get(players[2].pk, 0) <= 1
    assert sum(counts.values()) == 4
    assert ladders.pair(ladder.pk) == []
    # A finished game frees a place: the next run pairs again.
    game = Game.objects.filter(ladder_game__ladder=ladder).first()
    play_to_the_end(game)
    ladders.leave(ladder.pk, players[2])
    made = ladders.pair(ladder.pk)
    assert all(players[2].pk not in {s.user_id for s in g.seats.all()} for g in made)
    with pytest.raises(play.PlayError):
        ladders.join(ladder.pk, players[0], 9)


def test_the_ladder_page_ranks_by_rating_and_joins(client, ladder):
    strong = rated(UserFactory(display_name="Strong"), "count", 1400)
    weak = rated(UserFactory(display_name="Weak"), "count", 900)
    ladders.join(ladder.pk, weak, 1)
    ladders.join(ladder.pk, strong, 1)
    page = client.get(ladder.get_absolute_url()).content.decode()
    assert page.index("Strong") < page.index("Weak")
    client.force_login(UserFactory())
    response = client.post(f"/ladders/{ladder.pk}/join", {"games_at_once": "3"}, follow=True)
    assert "You are on the ladder." in response.content.decode()
    assert LadderPlayer.objects.filter(ladder=ladder, games_at_once=3).count() == 1
    junk = client.post(f"/ladders/{ladder.pk}/join", {"games_at_once": "zz"}, follow=True)
    assert "Choose how many" in junk.content.decode()
    assert client.post("/ladders/99999/join", {"games_at_once": "1"}).status_code == 404
    assert "Count ladder" in client.get("/ladders/").content.decode()
    client.post(f"/ladders/{ladder.pk}/leave")
    assert "Ladder: Count ladder" not in client.get("/my/").content.decode()


def test_a_ladder_game_says_so_on_its_page(client, ladder):
    a, b = UserFactory(), UserFactory()
    ladders.join(ladder.pk, a, 1)
    ladders.join(ladder.pk, b, 1)
    [game] = ladders.pair(ladder.pk)
    client.force_login(a)
    assert (
        "A game of the ladder “Count ladder”."
        in client.get(game.get_absolute_url()).content.decode()
    )


def test_every_title_has_a_ladder_from_the_start():
    assert set(Ladder.objects.values_list("kind", flat=True)) >= {"siam", "tal"}


def test_the_tournament_pages_render_in_every_state(client, count_kind):
    tournament = start(make(entrants=3, rounds=1))
    for game in running_games(tournament):
        play_to_the_end(game)
    for path in ("/tournaments/", tournament.get_absolute_url(), "/ladders/"):
        assert client.get(path).status_code == 200
    running.advance(tournament.pk)
    assert client.get(tournament.get_absolute_url()).status_code == 200
