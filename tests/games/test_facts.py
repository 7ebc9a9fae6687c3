"""The page's facts (games.facts): what the parts of a game page read about the game
and its viewer, all named key parts in one query per page, and none at all on a page
whose cache key was just worked out (the key's query read them)."""

import pytest
from django.test import RequestFactory

from games import extend, facts, pagecache
from games.models import Premove
from games.pages import board_page
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_and_players():
    players = [UserFactory(), UserFactory()]
    return running_game("siam", players), players


def test_every_named_key_part_is_a_fact_read_in_one_query(
    game_and_players, django_assert_num_queries
):
    game, (anna, _) = game_and_players
    page = board_page(game, anna)
    names = extend.key_names()
    assert "games.premove" in names and len(names) > 1
    with django_assert_num_queries(1):
        values = {name: facts.of_page(page, name) for name in names}
    assert values["games.premove"] is None  # no queue: the page reads no premove row
    with django_assert_num_queries(0):
        assert page.premove is None


def test_a_fact_is_read_as_it_is_now_and_for_the_viewer(game_and_players):
    game, (anna, bert) = game_and_players
    Premove.objects.create(game=game, user=anna, seat=game.seat_of(anna).number, actions=[])
    assert facts.of_page(board_page(game, anna), "games.premove") is not None
    assert board_page(game, anna).premove is not None
    assert facts.of_page(board_page(game, bert), "games.premove") is None


def test_the_page_key_leaves_its_facts_for_the_parts(game_and_players, django_assert_num_queries):
    game, (anna, bert) = game_and_players
    request = RequestFactory().get(game.get_absolute_url())
    request.user = anna
    assert pagecache.page_key(request, game) is not None
    page = board_page(game, anna)
    context = {"page": page, "request": request}
    with django_assert_num_queries(0):
        assert facts.fact(context, "games.premove") is None
    # Another game's page does not take them: they are read for it.
    other = board_page(running_game("siam", [anna, UserFactory()]), anna)
    with django_assert_num_queries(1):
        facts.fact({"page": other, "request": request}, "games.premove")
    # Nor a page of this game drawn for someone else: a fact may be the viewer's own.
    Premove.objects.create(game=game, user=bert, seat=game.seat_of(bert).number, actions=[])
    for_bert = board_page(game, bert)
    with django_assert_num_queries(1):
        assert facts.fact({"page": for_bert, "request": request}, "games.premove") is not None
