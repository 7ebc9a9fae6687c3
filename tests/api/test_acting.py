"""A move through the API is the page's move: the same checks, the same one row,
and a refusal (forged, stale, out of turn, no scope, junk) changes nothing."""

import json

import pytest

from games import play
from games.models import ChatMessage, Game, Move
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(count_kind):
    game = running_game("count", [UserFactory(), UserFactory()])
    first, second = (game.seats.get(number=n).user for n in (0, 1))
    return game, first, second


def post(client, url, body, headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def state(game):
    game.refresh_from_db()
    return game.version, Move.objects.filter(game=game).count(), ChatMessage.objects.count()


def test_a_retried_move_is_recorded_once(client, table, token_of):
    game, first, _second = table
    headers = token_of(first)
    body = {
        "action": {"type": "add", "n": 2},
        "version": game.version,
        "idempotency_key": "k-123456",
    }
    answer = post(client, f"/api/v1/games/{game.pk}/act", body, headers).json()
    again = post(client, f"/api/v1/games/{game.pk}/act", body, headers).json()
    assert answer["ok"] and "recorded" not in answer
    assert again == {**answer, "recorded": True}
    assert Move.objects.filter(game=game).count() == 1
    view = client.get(f"/api/v1/games/{game.pk}", headers=headers).json()["view"]
    assert view["total"] == 2


@pytest.mark.parametrize(
    "who, body, status, code",
    [
        ("first", {"action": {"type": "add", "n": 7}}, 400, "illegal_action"),  # forged
        ("first", {"action": {"type": "add", "n": 1}, "stale": True}, 409, "stale_version"),
        ("second", {"action": {"type": "add", "n": 1}}, 400, "refused"),  # not their turn
        ("outsider", {"action": {"type": "add", "n": 1}}, 403, "not_a_player"),
        ("read-only", {"action": {"type": "add", "n": 1}}, 403, "missing_scope"),
        ("first", {"action": "add", "version": 1}, 400, "invalid_input"),
        ("first", {"version": {"x": 1}}, 400, "invalid_input"),
    ],
)
def test_a_refused_move_changes_nothing(client, table, token_of, who, body, status, code):
    game, first, second = table
    headers = {
        "first": lambda: token_of(first),
        "second": lambda: token_of(second),
        "outsider": lambda: token_of(UserFactory()),
        "read-only": lambda: token_of(first, "read chat"),
    }[who]()
    if "version" not in body:
        body = {**body, "version": game.version - 1 if body.pop("stale", False) else game.version}
    before = state(game)
    response = post(client, f"/api/v1/games/{game.pk}/act", body, headers)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"]
    assert state(game) == before


def test_junk_bodies_are_refused_as_json(client, table, token_of):
    game, first, _second = table
    headers = token_of(first)
    before = state(game)
    for junk in (b"not json", b"[1, 2]", b'{"action": null}', b"\xff\xfe", b""):
        for route in ("act", "undo", "chat", "premoves", "agreements"):
            response = client.post(
                f"/api/v1/games/{game.pk}/{route}",
                junk,
                content_type="application/json",
                headers=headers,
            )
            assert response.status_code == 400, (route, junk)
            assert response.json()["code"] == "invalid_input"
    assert state(game) == before


def test_a_token_without_the_chat_scope_reads_the_chat_but_writes_nothing(client, table, token_of):
    game, first, second = table
    post(client, f"/api/v1/games/{game.pk}/chat", {"text": "good luck"}, token_of(second))
    reader = token_of(first, "read play")
    lines = client.get(f"/api/v1/games/{game.pk}/chat", headers=reader).json()
    assert [line["text"] for line in lines] == ["good luck"]
    refused = post(client, f"/api/v1/games/{game.pk}/chat", {"text": "hi"}, reader)
    assert refused.json()["code"] == "missing_scope"
    assert ChatMessage.objects.count() == 1


def test_my_games_come_with_my_turn_first(client, count_kind, token_of):
    me = UserFactory()
    games = [running_game("count", [me, UserFactory()]) for _ in range(3)]
    # The first game waits for me, the last for the other player, whatever the draw.
    for game, wanted in ((games[0], me), (games[2], None)):
        mover = game.seats.get(number=0).user
        if (mover == me) != (wanted == me):
            play.act(game.pk, mover, {"type": "add", "n": 1}, None)
            play.act(game.pk, mover, {"type": "end"}, None)
    mine = client.get("/api/v1/me/games", headers=token_of(me)).json()
    turns = [g["my_turn"] for g in mine]
    assert sorted(g["id"] for g in mine) == sorted(g.pk for g in games)
    assert turns == sorted(turns, reverse=True) and True in turns and False in turns


def test_the_legal_actions_come_with_their_labels_and_undo_takes_one_back(client, table, token_of):
    game, first, _second = table
    headers = token_of(first)
    listed = client.get(f"/api/v1/games/{game.pk}/actions", headers=headers).json()
    assert [a["label"] for a in listed["actions"]] == ["Add 1", "Add 2"]
    chosen = listed["actions"][0]["action"]
    post(
        client,
        f"/api/v1/games/{game.pk}/act",
        {"action": chosen, "version": listed["token"]},
        headers,
    )
    game.refresh_from_db()
    taken = post(client, f"/api/v1/games/{game.pk}/undo", {"version": game.version}, headers)
    assert taken.json()["move_count"] == 0
    assert Move.objects.get(game=game).undone
    assert Game.objects.get(pk=game.pk).undo_count == 1
