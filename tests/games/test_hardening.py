"""Odd and hostile input gets a clear refusal and changes nothing; never a 500."""

import pytest

from games import play
from games.models import ChatMessage, Game, Move
from tests.factories import UserFactory

from .conftest import post_action

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("version", [b"1e999", b"-1e999", b"[1]", b'{"a": 1}', b"true"])
@pytest.mark.parametrize("endpoint", ["act", "undo"])
def test_absurd_versions_are_refused(client, started, version, endpoint):
    game, first, _ = started
    client.force_login(first)
    body = b'{"action": {"type": "add", "n": 1}, "version": ' + version + b"}"
    response = client.post(f"/g/{game.pk}/{endpoint}", body, content_type="application/json")
    assert response.status_code in (400, 409)
    assert not Move.objects.exists()


def test_deeply_nested_json_is_refused(client, started):
    game, first, _ = started
    client.force_login(first)
    deep = b'{"action": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = client.post(f"/g/{game.pk}/act", deep, content_type="application/json")
    assert response.status_code == 400
    form = client.post(f"/g/{game.pk}/act", {"action": "[" * 100_000})
    assert form.status_code == 400


def test_non_text_invite_token_is_refused(client, count_kind, alice, bob):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=True
    )
    client.force_login(bob)
    response = client.post(f"/g/{game.pk}/join", b'{"token": 123}', content_type="application/json")
    # Without a valid invite the private game stays hidden: the same answer as no game.
    assert response.status_code == 404
    assert game.seats.count() == 1


@pytest.mark.parametrize("text", ["a\ud800b", "nul\x00byte"])
def test_chat_text_that_cannot_be_stored_is_refused(client, started, text):
    game, first, _ = started
    client.force_login(first)
    response = client.post(f"/g/{game.pk}/chat", {"text": text}, content_type="application/json")
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def test_chat_must_be_text(client, started):
    game, first, _ = started
    client.force_login(first)
    response = client.post(
        f"/g/{game.pk}/chat", {"text": {"a": 1}}, content_type="application/json"
    )
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def test_chat_opens_when_the_game_starts(client, count_kind, alice):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=False
    )
    client.force_login(alice)
    assert client.post(f"/g/{game.pk}/chat", {"text": "anyone?"}).status_code == 409
    assert not ChatMessage.objects.exists()


def test_players_can_still_chat_after_the_game(client, started):
    game, first, _ = started
    play.resign(game.pk, first)
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'class="chat-form"' in page
    assert client.post(f"/g/{game.pk}/chat", {"text": "good game"}).status_code == 302
    assert ChatMessage.objects.get().text == "good game"


def test_acting_before_the_start_says_so(client, count_kind, alice):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=False
    )
    client.force_login(alice)
    response = post_action(client, game, {"type": "add", "n": 1})
    assert response.status_code == 409
    assert "not started" in response.json()["error"]


def test_private_games_stay_private_after_the_start(client, count_kind, alice, bob):
    game = play.create_game(
        alice, count_kind, title="t", players=2, options={}, time_limit_days=3, private=True
    )
    play.join(game.pk, bob)
    outsider = UserFactory()
    for who in [None, outsider]:
        client.logout()
        if who:
            client.force_login(who)
        for path in ["/", "board", "version", "poll?v=0&c=0", "?at=0"]:
            url = f"/g/{game.pk}/{'' if path == '/' else path}"
            assert client.get(url).status_code == 404, url
    client.force_login(bob)
    assert client.get(f"/g/{game.pk}/").status_code == 200
    client.force_login(UserFactory(is_staff=True))
    assert client.get(f"/g/{game.pk}/").status_code == 200


def test_htmx_click_after_the_session_expired_redirects_the_whole_page(client, started):
    game, _, _ = started
    response = client.post(
        f"/g/{game.pk}/act",
        {"action": '{"type":"add","n":1}', "version": game.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/accounts/login/")


def test_the_waiting_page_reloads_when_someone_joins(client, count_kind, alice, bob):
    game = play.create_game(
        alice, count_kind, title="t", players=3, options={}, time_limit_days=3, private=False
    )
    client.force_login(alice)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "open=1" in page
    url = f"/g/{game.pk}/poll?v={game.version}&c=0&open=1"
    assert client.get(url).status_code == 204
    play.join(game.pk, bob)
    response = client.get(url)
    assert response["HX-Refresh"] == "true"


def test_open_game_page_shows_option_labels(client, count_kind, alice):
    game = play.create_game(
        alice,
        count_kind,
        title="t",
        players=2,
        options={"target": "5"},
        time_limit_days=3,
        private=False,
    )
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "<dt>Target</dt><dd>Five</dd>" in page


def test_resign_button_is_part_of_the_refreshed_board(client, started):
    game, first, _ = started
    client.force_login(first)
    partial = client.get(f"/g/{game.pk}/board").content.decode()
    assert 'class="resign-form"' in partial
    play.resign(game.pk, first)
    partial = client.get(f"/g/{game.pk}/board").content.decode()
    assert 'class="resign-form"' not in partial
    assert Game.objects.get().status == Game.Status.FINISHED
