"""The API's lists cost the same few queries however long they are; its chat obeys the
page's rules; and a request id counts once, whether it came from the page or the API."""

import json

import pytest

from games.models import Move
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


def post(client, url, body, headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


@pytest.fixture
def table(count_kind):
    game = running_game("count", [UserFactory(), UserFactory()])
    return game, game.seats.get(number=0).user


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
