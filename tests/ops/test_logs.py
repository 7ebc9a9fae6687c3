"""LOG_FORMAT=json: one JSON object per line, carrying the request's id, the user id,
the route name and the game id, and nothing personal."""

import copy
import io
import json
import logging
import logging.config

import pytest
from django.conf import settings as django_settings

from .conftest import move

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_log():
    """The settings' logging as LOG_FORMAT=json configures it, written to a buffer."""
    config = copy.deepcopy(django_settings.LOGGING)
    config["handlers"]["console"]["formatter"] = "json"
    logging.config.dictConfig(config)
    stream = io.StringIO()
    handler = logging.getLogger().handlers[0]
    handler.setStream(stream)
    yield stream
    logging.config.dictConfig(django_settings.LOGGING)


def lines(stream) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_the_log_line_of_a_move_carries_its_game_and_route(client, started, json_log):
    game, first, _ = started
    client.force_login(first)
    response = move(client, game, headers={"X-Request-ID": "proxy-id-12345"})
    assert response.status_code == 200
    assert response["X-Request-ID"] == "proxy-id-12345"
    moves = [line for line in lines(json_log) if line["message"] == "move"]
    assert len(moves) == 1
    line = moves[0]
    assert line["game_id"] == game.pk
    assert line["route"] == "game_act"
    assert line["user_id"] == first.pk
    assert line["request_id"] == "proxy-id-12345"
    assert line["level"] == "INFO" and line["logger"] == "games.play"
    text = json_log.getvalue()
    for personal in (first.email, first.username, "127.0.0.1"):
        assert personal not in text


def test_a_request_without_a_sane_id_gets_one(client, json_log):
    response = client.get("/", headers={"X-Request-ID": "bad id\nforged line"})
    assert len(response["X-Request-ID"]) == 32 and "\n" not in response["X-Request-ID"]
    logging.getLogger("test").warning("outside a request")
    outside = lines(json_log)[-1]
    assert outside["request_id"] is None and outside["game_id"] is None
