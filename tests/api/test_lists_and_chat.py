"""The API's lists cost the same few queries however long they are; its chat obeys the
page's rules; and a request id counts once, whether it came from the page or the API."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import play
from games.models import ChatMessage, Game, Move
from games.numbering import numbering
from moderation import actions
from tests.factories import UserFactory, running_game
from tests.moderation.admin_helpers import moderator
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def queries(client, path, headers) -> tuple[int, list]:
    """The queries of one request, after a first one (a token's first request records
    that it was used)."""
    client.get(path, headers=headers)
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(path, headers=headers)
    assert answer.status_code == 200
    return len(captured), answer.json()


def test_my_games_cost_as_many_queries_for_thirty_tal_games_as_for_three(client, token_of):
    me = UserFactory()
    headers = token_of(me)

    def tal_games(count):
        for _ in range(count):
            running_game("tal", [me, UserFactory()])

    tal_games(3)
    few, listed = queries(client, "/api/v1/me/games", headers)
    assert len(listed) == 3
    tal_games(27)
    many, listed = queries(client, "/api/v1/me/games", headers)
    assert len(listed) == 30 and many == few
    # Each counts what every viewer sees: the moves in force but the secret plan steps.
    for game in listed:
        assert game["move_count"] == numbering(Game.objects.get(pk=game["id"]), None).total


def test_the_lobby_costs_as_many_queries_for_thirty_games_as_for_three(client, token_of):
    headers = token_of(UserFactory())

    def open_tal_games(count):
        for n in range(count):
            play.create_game(
                UserFactory(), registry_kind("tal"), title=f"Open {n}", players=2, options={},
                time_limit_days=3, private=False,
            )  # fmt: skip

    open_tal_games(3)
    few, listed = queries(client, "/api/v1/lobby", headers)
    assert len(listed) == 3
    open_tal_games(27)
    many, listed = queries(client, "/api/v1/lobby", headers)
    assert len(listed) == 30 and many == few


def registry_kind(slug):
    from games import registry

    return registry.get(slug)


def test_tournaments_cost_as_many_queries_for_a_long_list_as_for_three(client, token_of):
    headers = token_of(UserFactory())
    creator = UserFactory()

    def tournaments(count):
        for n in range(count):
            cup = Tournament.objects.create(
                created_by=creator, name=f"Cup {n}", kind="count", options={}, table_size=2,
                format=Tournament.Format.SWISS, rounds=2, min_entrants=2, max_entrants=16,
                signup_closes=timezone.now() + timedelta(days=1, minutes=n),
            )  # fmt: skip
            for _ in range(2):
                Entrant.objects.create(tournament=cup, user=UserFactory())

    tournaments(3)
    few, listed = queries(client, "/api/v1/tournaments", headers)
    assert [t["entrants"] for t in listed["tournaments"]] == [2, 2, 2]
    tournaments(27)
    many, listed = queries(client, "/api/v1/tournaments", headers)
    assert len(listed["tournaments"]) == 20 and many == few  # the list shows twenty


def post(client, url, body, headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


@pytest.fixture
def table(count_kind):
    game = running_game("count", [UserFactory(), UserFactory()])
    return game, game.seats.get(number=0).user


def test_the_apis_chat_keeps_the_pages_length_and_mutes(client, table, token_of, settings):
    game, player = table
    headers = token_of(player)
    url = f"/api/v1/games/{game.pk}/chat"
    too_long = post(client, url, {"text": "x" * (settings.CHAT_MAX_LENGTH + 1)}, headers)
    assert too_long.status_code == 400
    assert f"at most {settings.CHAT_MAX_LENGTH} characters" in too_long.json()["message"]
    actions.mute_chat(moderator(), player, "Shouting at everyone", days=7)
    muted = post(client, url, {"text": "hello"}, headers)
    assert muted.status_code == 403 and "Shouting at everyone" in muted.json()["message"]
    assert not ChatMessage.objects.exists()
    # What the API's description tells programs is that limit.
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["ChatIn"]
    assert schema["properties"]["text"]["maxLength"] == settings.CHAT_MAX_LENGTH


def test_a_request_id_counts_once_from_the_page_and_the_api(client, table, token_of):
    game, player = table
    client.force_login(player)
    action = {"action": {"type": "add", "n": 1}, "request_id": "click-12345678"}
    page = client.post(f"/g/{game.pk}/act", json.dumps(action), content_type="application/json")
    assert page.json()["ok"]
    retried = post(
        client,
        f"/api/v1/games/{game.pk}/act",
        {"action": {"type": "add", "n": 1}, "version": 1, "idempotency_key": "click-12345678"},
        token_of(player),
    ).json()
    assert retried["recorded"] and Move.objects.filter(game=game).count() == 1
