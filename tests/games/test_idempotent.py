"""A click whose answer was lost (a cut connection) is sent again with the same
request id: the server says it was recorded, and acts only once."""

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection

from games.models import ChatMessage, Game, Move
from tests.conftest import need_service

from .conftest import post_action

pytestmark = pytest.mark.django_db

ADD = '{"type":"add","n":1}'


def test_a_retried_move_is_answered_recorded_without_a_second_row(client, started):
    game, first, _ = started
    client.force_login(first)
    body = {"action": {"type": "add", "n": 1}, "version": game.version, "request_id": "click-0001"}
    first_answer = client.post(f"/g/{game.pk}/act", body, content_type="application/json")
    assert first_answer.json()["ok"] and "recorded" not in first_answer.json()
    retry = client.post(f"/g/{game.pk}/act", body, content_type="application/json")
    assert retry.status_code == 200
    assert retry.json() == {
        "ok": True,
        "recorded": True,
        "version": game.version + 1,
        "move_count": 1,
    }
    assert Move.objects.count() == 1


def test_a_retried_click_on_the_board_shows_the_board_after_the_move(client, started):
    game, first, _ = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    request_id = re.search(r'data-request-id="([0-9a-f]+)"', page).group(1)
    token = re.search(r'name="version" value="(v[0-9a-f]+)"', page).group(1)
    click = {"action": ADD, "version": token, "request_id": request_id}
    headers = {"HX-Request": "true"}
    assert client.post(f"/g/{game.pk}/act", click, headers=headers).status_code == 200
    retry = client.post(f"/g/{game.pk}/act", click, headers=headers)
    assert retry.status_code == 200  # not 409: the move counted
    text = retry.content.decode()
    assert "was recorded" in text and 'class="error"' not in text
    assert Move.objects.count() == 1
    # The answer carries a new id, so the next click is a new request.
    assert f'data-request-id="{request_id}"' not in text


def test_every_page_render_has_its_own_request_id(client, started):
    game, first, _ = started
    client.force_login(first)
    ids = {
        re.search(r'data-request-id="([0-9a-f]+)"', client.get(f"/g/{game.pk}/").content.decode())[
            1
        ]
        for _ in range(3)
    }
    assert len(ids) == 3


def test_a_refused_move_does_not_use_up_its_request_id(client, started):
    game, first, _ = started
    client.force_login(first)
    body = {"action": {"type": "add", "n": 7}, "request_id": "click-0002"}
    assert (
        client.post(f"/g/{game.pk}/act", body, content_type="application/json").status_code == 400
    )
    body["action"] = {"type": "add", "n": 1}
    answer = client.post(f"/g/{game.pk}/act", body, content_type="application/json")
    assert answer.json()["ok"] and "recorded" not in answer.json()
    assert Move.objects.count() == 1


def test_take_back_resign_and_chat_are_idempotent_too(client, started):
    game, first, _ = started
    client.force_login(first)
    post_action(client, game, {"type": "add", "n": 1})
    undo = {"request_id": "undo-0001"}
    for _ in range(2):
        assert client.post(f"/g/{game.pk}/undo", undo, content_type="application/json").json()["ok"]
    game.refresh_from_db()
    assert game.undo_count == 1 and game.move_count == 0
    chat = {"text": "hello", "request_id": "chat-0001"}
    for _ in range(2):
        assert client.post(f"/g/{game.pk}/chat", chat, content_type="application/json").json()["ok"]
    assert ChatMessage.objects.count() == 1
    resign = {"request_id": "resign-001"}
    for _ in range(2):
        answer = client.post(f"/g/{game.pk}/resign", resign, content_type="application/json")
        assert answer.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_malformed_request_id_is_refused(client, started):
    game, first, _ = started
    client.force_login(first)
    for bad in ["short", "x" * 65, "<script>", 12345678]:
        body = {"action": {"type": "add", "n": 1}, "request_id": bad}
        answer = client.post(f"/g/{game.pk}/act", body, content_type="application/json")
        assert answer.status_code == 400
    assert not Move.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_click_racing_itself_is_recorded_once(started):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    from django.test import Client

    game, first, _ = started
    answers = []
    barrier = threading.Barrier(4)

    def send():
        client = Client()
        client.force_login(first)
        barrier.wait()
        body = {"action": {"type": "add", "n": 1}, "request_id": "race-00001"}
        try:
            answers.append(client.post(f"/g/{game.pk}/act", body, content_type="application/json"))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 200]
    assert sum(1 for a in answers if a.json().get("recorded")) == 3
    assert Move.objects.filter(game=game).count() == 1


def test_request_ids_are_forgotten_after_a_day(client, started):
    import time_machine
    from django.utils import timezone

    from games.models import Receipt
    from games.tasks import prune_receipts

    game, first, _ = started
    client.force_login(first)
    body = {"action": {"type": "add", "n": 1}, "request_id": "old-click-1"}
    client.post(f"/g/{game.pk}/act", body, content_type="application/json")
    with time_machine.travel(timezone.now() + timedelta(hours=23)):
        assert prune_receipts() == 0
    with time_machine.travel(timezone.now() + timedelta(hours=25)):
        assert prune_receipts() == 1
    assert not Receipt.objects.exists()
