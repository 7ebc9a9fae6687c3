"""The archive's search: each filter finds the games it names and no others, a page
costs the same number of queries on a larger site, pages follow one another by keyset,
and a bad parameter gets a clear message (400), never a 500."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import play, registry
from games.models import Game, Seat
from tests.factories import UserFactory

from .clock import START
from .pager import link

pytestmark = pytest.mark.django_db


def _game(kind, users, title, day, *, loser=None, moves=0, private=False, options=None, **extra):
    """A game of ``users`` (the first creates it), ``moves`` moves long, ended on ``day``
    by ``loser``'s resignation (the first player's if None)."""
    when = START + timedelta(days=day)
    with time_machine.travel(when, tick=False):
        game = play.create_game(
            users[0], kind, title=title, players=2, options=options or {},
            time_limit_days=3, private=private, **extra,
        )  # fmt: skip
        for user in users[1:]:
            play.join(game.pk, user)
        for _ in range(moves // 2):
            mover = game.seats.get(to_move=True).user
            play.act(game.pk, mover, {"type": "add", "n": 1}, None)
            play.act(game.pk, mover, {"type": "end"}, None)
        play.resign(game.pk, loser or users[0])
    game.refresh_from_db()
    return game


@pytest.fixture
def site(count_kind):
    anna = UserFactory(username="anna")
    bert = UserFactory(username="bert")
    cara = UserFactory(username="cara")
    _game(count_kind, [anna, bert], "Alpha", 1, loser=bert, moves=4)  # anna won
    _game(count_kind, [anna, cara], "Bravo", 2)  # anna lost
    drawn = _game(count_kind, [anna, bert], "Charlie", 3, moves=2)
    # The test's title always has a winner: a drawn result as a title would leave it.
    Game.objects.filter(pk=drawn.pk).update(result={**drawn.result, "winners": []})
    _game(count_kind, [bert, cara], "Delta", 4, private=True)
    _game(count_kind, [cara], "Echo", 5, computer_players=["random"])  # unrated
    siam = registry.get("siam")
    _game(siam, [bert, anna], "Foxtrot", 6, options={"map": "saba"}, loser=anna)
    _game(siam, [cara, bert], "Golf", 7, options={"map": "siam"}, moves=0)
    return anna, bert, cara


def _titles(page: str) -> list[str]:
    return re.findall(r'<a href="/g/\d+/">(\w+)</a>', page)


FILTERS = {
    "": ["Golf", "Foxtrot", "Echo", "Charlie", "Bravo", "Alpha"],
    "title=count": ["Echo", "Charlie", "Bravo", "Alpha"],
    "title=siam": ["Golf", "Foxtrot"],
    "map=siam.saba": ["Foxtrot"],
    "map=siam.siam": ["Golf"],
    "player=anna": ["Foxtrot", "Charlie", "Bravo", "Alpha"],
    "player=anna&against=bert": ["Foxtrot", "Charlie", "Alpha"],
    "player=bert&against=cara": ["Golf"],  # Delta is private
    "since=2027-03-04&until=2027-03-06": ["Echo", "Charlie"],
    "player=anna&result=won": ["Alpha"],
    "player=anna&result=lost": ["Foxtrot", "Bravo"],
    "player=anna&result=drawn": ["Charlie"],
    "player=bert&result=won": ["Golf", "Foxtrot"],
    "moves_min=2": ["Charlie", "Alpha"],
    "moves_max=0": ["Golf", "Foxtrot", "Echo", "Bravo"],
    "moves_min=1&moves_max=3": ["Charlie"],
    "rated=yes": ["Golf", "Foxtrot", "Charlie", "Bravo", "Alpha"],
    "rated=no": ["Echo"],
    "sort=oldest": ["Alpha", "Bravo", "Charlie", "Echo", "Foxtrot", "Golf"],
    "sort=longest": ["Alpha", "Charlie", "Golf", "Foxtrot", "Echo", "Bravo"],
    "sort=shortest": ["Bravo", "Echo", "Foxtrot", "Golf", "Charlie", "Alpha"],
    "player=anna&sort=longest": ["Alpha", "Charlie", "Foxtrot", "Bravo"],
    "player=anna&title=siam&result=lost": ["Foxtrot"],
}


def _bulk_games(kind, players, count, day=30):
    """``count`` more public finished games of ``players``, written in two inserts."""
    when = START + timedelta(days=day)
    games = Game.objects.bulk_create(
        Game(kind=kind, title=f"Bulk{n}", players=2, rules_version=1, status="finished",
             started_at=when, finished_at=when, move_count=n % 7, result={"winners": [0]})
        for n in range(count)
    )  # fmt: skip
    Seat.objects.bulk_create(
        Seat(game=game, user=user, person=user, number=n, ended_at=when)
        for game in games
        for n, user in enumerate(players)
    )


def test_each_filter_finds_its_games_at_a_flat_number_of_queries(client, site, count_kind):
    assert START.date().isoformat() == "2027-03-01"  # the dates of FILTERS: Alpha ended the 2nd
    anna, bert, cara = site
    small = {}
    for query, expected in FILTERS.items():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/archive/?{query}")
        assert response.status_code == 200, query
        assert _titles(response.content.decode()) == expected, query
        small[query] = len(queries)
    # Thirty more games of every pair: each search asks what it asked before.
    for pair in ((anna, bert), (bert, cara), (anna, cara)):
        _bulk_games("count", pair, 10)
    for query in FILTERS:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/archive/?{query}").status_code == 200
        assert len(queries) == small[query], query


def test_the_pages_follow_one_another_both_ways_in_every_order(client, count_kind):
    anna, bert = UserFactory(username="anna"), UserFactory(username="bert")
    _bulk_games("count", (anna, bert), 65)
    for query in ("", "sort=oldest", "sort=longest", "player=anna&sort=shortest"):
        seen, page = [], client.get(f"/archive/?{query}").content.decode()
        pages = [page]
        while link(page, "next"):
            page = client.get(link(page, "next")).content.decode()
            pages.append(page)
        seen = [title for page in pages for title in re.findall(r">(Bulk\d+)<", page)]
        assert len(pages) == 3 and sorted(seen) == sorted(f"Bulk{n}" for n in range(65)), query
        back = client.get(link(pages[-1], "prev")).content.decode()
        assert re.findall(r">(Bulk\d+)<", back) == re.findall(r">(Bulk\d+)<", pages[1]), query
    # Cursors past any number a column holds find nothing, or everything, never an error.
    for query in ("sort=longest&after=999999999999999999.1", "sort=shortest&before=99999999999.1"):
        assert client.get(f"/archive/?player=anna&{query}").status_code == 200
        assert client.get(f"/archive/?{query}").status_code == 200


BAD = {
    "player=nobody": "There is no player named “nobody”.",
    "against=bert": "Name a player to search their games against another.",
    "player=bert&against=bert": "Name two different players.",
    "result=won": "A result is a player&#x27;s: name the player.",
    "result=maybe&player=bert": "Select a valid choice.",
    "since=2026-05-01&until=2026-04-01": "The end of the range comes before its start.",
    "since=yesterday": "Enter a valid date.",
    "moves_min=9&moves_max=3": "The most moves are fewer than the fewest.",
    "moves_min=-1": "Ensure this value is greater than or equal to 0.",
    "moves_max=99999999999999999999": "Ensure this value is less than or equal to 100000.",
    "title=count&map=siam.saba": "That map belongs to another game.",
    "sort=random": "Select a valid choice.",
    "after=12": "This link to a page of the archive is broken",
    "after=1.2&before=3.4": "This link to a page of the archive is broken",
    "after=999999999999999999.1": "This link to a page of the archive is broken",
}


def test_a_bad_parameter_gets_a_clear_message_and_no_games(client, count_kind):
    _game(count_kind, [UserFactory(username="anna"), UserFactory(username="bert")], "Alpha", 1)
    for query, message in BAD.items():
        response = client.get(f"/archive/?{query}")
        assert response.status_code == 400, query
        page = response.content.decode()
        assert message in page and _titles(page) == [], query


def test_my_private_games_are_found_only_by_me(client, site):
    anna, bert, cara = site
    assert "Delta" not in client.get("/archive/?player=bert&against=cara").content.decode()
    client.force_login(cara)
    assert "Delta" not in client.get("/archive/?player=bert").content.decode()
    mine = client.get("/archive/?mine=1&against=bert").content.decode()
    assert _titles(mine) == ["Golf", "Delta"]
    # "mine" is the viewer's: a player named beside it does not open their private games.
    client.force_login(anna)
    assert "Delta" not in client.get("/archive/?mine=1&player=bert").content.decode()


def test_a_profile_searches_that_players_games(client, site):
    anna, bert, cara = site
    profile = client.get("/u/anna/").content.decode()
    assert 'action="/archive/"' in profile and 'name="player" value="anna"' in profile
    assert "anna against" in profile


def test_a_game_its_players_agreed_not_to_rate_is_not_found_as_rated(client, count_kind):
    """Automatch's unrated tables: people only, and still no rating (``Game.rated``)."""
    anna, bert = UserFactory(username="anna"), UserFactory(username="bert")
    _game(count_kind, [anna, bert], "Rated", 1)
    _game(count_kind, [anna, bert], "Friendly", 2, rated=False)
    assert _titles(client.get("/archive/?rated=yes").content.decode()) == ["Rated"]
    assert _titles(client.get("/archive/?rated=no").content.decode()) == ["Friendly"]
