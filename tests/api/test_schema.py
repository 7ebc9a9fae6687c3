"""The OpenAPI schema is valid, and every operation in it answers: the one this test
expects, in JSON, a refusal with a code and a message. A new operation without a
call here fails the test."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from openapi_spec_validator import validate

from games import play
from tests.factories import UserFactory, running_game
from tournaments.models import Ladder

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_is_valid_openapi_3(schema):
    validate(schema)
    assert schema["openapi"].startswith("3.")
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"


def test_every_operation_answers_as_expected(client, schema, count_kind, token_of):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = running_game("count", [alice, bob])
    waiting = play.create_game(
        UserFactory(),
        count_kind,
        title="Waiting",
        players=3,
        options={},
        time_limit_days=3,
        private=False,
    )
    until = (timezone.now() + timedelta(days=3)).isoformat()
    # operationId: (game, body, expected status)
    calls = {
        "me": (None, None, 200),
        "my_games": (None, None, 200),
        "lobby": (None, None, 200),
        "create": (None, {"kind": "count", "players": 2, "options": {"target": "5"}}, 200),
        "join": (waiting, {}, 200),
        "leave": (waiting, None, 200),
        "tournaments": (None, None, 200),
        "enter": (None, None, 404),  # no tournament 0
        "join_ladder": (None, {"games_at_once": 2}, 200),
        "game": (game, None, 200),
        "actions": (game, None, 200),
        "act": (game, {"action": {"type": "add", "n": 1}, "version": "latest"}, 200),
        "undo": (game, {"version": "latest"}, 200),
        "history": (game, None, 200),
        "chat": (game, None, 200),
        "post_chat": (game, {"text": "hello"}, 200),
        "premoves": (game, None, 200),
        "queue_premove": (game, {"action": {"type": "add", "n": 1}}, 409),  # no planning here
        "clear_premoves": (game, None, 200),
        "agreements": (game, None, 200),
        "ask": (game, {"kind": "pause", "until": until}, 200),
        "withdraw": (game, None, 200),
        "answer": (game, {"request_id": 1, "agree": True}, 409),  # none open any more
        "bots": (None, None, 200),
        "challenges": (None, None, 200),
        "accept": (None, None, 404),  # no challenge 0 (tests/api/test_bot_accounts.py)
        "decline": (None, None, 404),
        "events": (None, None, 204),  # a stream under ASGI only (tests/api/test_events.py)
    }
    ladder = Ladder.objects.get(kind="siam")
    mover = game.seats.get(number=0).user  # seats are drawn: seat 0 moves first
    headers = token_of(mover)
    seen = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            name = operation["operationId"]
            seen.append(name)
            target, body, expected = calls[name]
            url = path.replace("{game_id}", str(target.pk if target else 0))
            url = url.replace("{tournament_id}", "0").replace("{ladder_id}", str(ladder.pk))
            url = url.replace("{challenge_id}", "0")
            if body and body.get("version") == "latest":
                target.refresh_from_db()
                body = {**body, "version": target.version}
            kwargs = {"content_type": "application/json"}
            if body is not None:
                kwargs["data"] = json.dumps(body)
            response = getattr(client, method)(url, headers=headers, **kwargs)
            assert response.status_code == expected, (name, response.content[:300])
            if response.status_code >= 400:
                assert set(response.json()) == {"code", "message"}, name
            elif response.status_code == 200:
                response.json()
    assert sorted(seen) == sorted(calls)
    assert ladder.players.get().user == mover


def test_a_game_made_through_the_api_takes_the_clock_the_form_offers(client, count_kind, token_of):
    """The API creates through the page's own form: a named pace gives every seat a bank,
    weekends off included; a pace the site does not offer is refused and makes nothing."""
    from games.models import Game

    headers = token_of(UserFactory())
    body = {"kind": "count", "players": 2, "clock": "quick", "weekends_off": True}
    made = client.post("/api/v1/lobby", body, content_type="application/json", headers=headers)
    assert made.status_code == 200, made.content
    game = Game.objects.get(pk=made.json()["id"])
    assert (game.bank_start, game.bank_increment, game.bank_cap, game.weekends_off) == (
        timedelta(hours=4),
        timedelta(hours=1),
        timedelta(hours=8),
        True,
    )
    refused = client.post(
        "/api/v1/lobby",
        {**body, "clock": "glacial"},
        content_type="application/json",
        headers=headers,
    )
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_input"
    assert Game.objects.count() == 1
