"""The action endpoint: one row per accepted action, clean refusals otherwise."""

import pytest

from games import play, replay
from games.models import Game, Move
from tests.factories import UserFactory

from .conftest import post_action

pytestmark = pytest.mark.django_db


def test_a_legal_action_appends_one_move(client, started):
    game, first, _ = started
    client.force_login(first)
    response = post_action(client, game, {"type": "add", "n": 2}, version=game.version)
    assert response.status_code == 200, response.content
    assert response.json()["move_count"] == 1
    move = Move.objects.get(game=game)
    assert (move.number, move.seat, move.action) == (1, 0, {"type": "add", "n": 2})


def test_forged_action_is_refused_with_the_engine_message_and_changes_nothing(client, started):
    game, first, _ = started
    client.force_login(first)
    response = post_action(client, game, {"type": "add", "n": 7}, version=game.version)
    assert response.status_code == 400
    assert "cannot do that" in response.json()["error"]
    assert not Move.objects.exists()
    game.refresh_from_db()
    assert game.move_count == 0


def test_stale_version_is_a_conflict(client, started):
    game, first, _ = started
    client.force_login(first)
    post_action(client, game, {"type": "add", "n": 1}, version=game.version)
    response = post_action(client, game, {"type": "end"}, version=game.version)
    assert response.status_code == 409
    assert Move.objects.count() == 1


def test_move_out_of_turn_is_refused(client, started):
    game, _, second = started
    client.force_login(second)
    response = post_action(client, game, {"type": "add", "n": 1}, version=game.version)
    assert response.status_code == 400
    assert "not your turn" in response.json()["error"]
    assert not Move.objects.exists()


def test_non_player_gets_403(client, started):
    game, _, _ = started
    client.force_login(UserFactory())
    response = post_action(client, game, {"type": "add", "n": 1})
    assert response.status_code == 403
    assert not Move.objects.exists()


def test_anonymous_cannot_act(client, started):
    game, _, _ = started
    response = post_action(client, game, {"type": "add", "n": 1})
    assert response.status_code == 403


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[1, 2]",
        b'{"version": 0}',
        b'{"action": {"type": "add", "n": 1}, "version": "x"}',
    ],
)
def test_malformed_requests_get_a_clear_400(client, started, body):
    game, first, _ = started
    client.force_login(first)
    response = client.post(f"/g/{game.pk}/act", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]
    assert not Move.objects.exists()


def test_malformed_form_action_gets_400(client, started):
    game, first, _ = started
    client.force_login(first)
    response = client.post(f"/g/{game.pk}/act", {"action": "{oops", "version": game.version})
    assert response.status_code == 400
    assert b"not valid JSON" in response.content


def test_plain_form_post_redirects_back_to_the_game(client, started):
    game, first, _ = started
    client.force_login(first)
    response = client.post(
        f"/g/{game.pk}/act", {"action": '{"type":"add","n":1}', "version": game.version}
    )
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"


def test_htmx_post_returns_the_new_board(client, started):
    game, first, _ = started
    client.force_login(first)
    response = client.post(
        f"/g/{game.pk}/act",
        {"action": '{"type":"add","n":1}', "version": game.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="board-area"')
    assert "Alice adds 1." in body or "Bob adds 1." in body


def test_htmx_refusal_swaps_in_the_board_with_the_message(client, started):
    game, first, _ = started
    client.force_login(first)
    response = client.post(
        f"/g/{game.pk}/act",
        {"action": '{"type":"end"}', "version": game.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()


def test_finished_game_refuses_moves(client, started):
    game, first, second = started
    play.resign(game.pk, second)
    client.force_login(first)
    response = post_action(client, game, {"type": "add", "n": 1})
    assert response.status_code == 409
    assert not Move.objects.exists()


def test_playing_to_the_end_records_the_result(started):
    game, first, second = started
    users = [first, second]
    turn = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        play.act(game.pk, users[turn], {"type": "add", "n": 2}, game.version)
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            play.act(game.pk, users[turn], {"type": "end"}, game.version)
            turn = 1 - turn
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [0]  # 2+2+2+2+2: seat 0 adds the fifth 2
    assert not game.seats.filter(to_move=True).exists()


def test_take_back_within_the_turn(client, started):
    game, first, _ = started
    client.force_login(first)
    post_action(client, game, {"type": "add", "n": 2})
    game.refresh_from_db()
    response = client.post(
        f"/g/{game.pk}/undo", {"version": game.version}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    game.refresh_from_db()
    assert game.move_count == 0
    assert Move.objects.get().undone  # kept, marked
    assert replay.current_state(game).total == 0
    # The next move gets a fresh number; the undone row stays.
    post_action(client, game, {"type": "add", "n": 1})
    assert list(Move.objects.values_list("number", "undone")) == [(1, True), (2, False)]
    assert replay.current_state(game).total == 1


def test_no_take_back_across_the_hand_over(client, started):
    game, first, _ = started
    client.force_login(first)
    post_action(client, game, {"type": "add", "n": 2})
    post_action(client, game, {"type": "end"})
    response = client.post(f"/g/{game.pk}/undo", {}, content_type="application/json")
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.move_count == 2


def test_cannot_take_back_someone_elses_action(client, started):
    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    client.force_login(second)
    response = client.post(f"/g/{game.pk}/undo", {}, content_type="application/json")
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.move_count == 1


def test_resign_ends_the_game_and_the_others_win(client, started):
    game, first, second = started
    client.force_login(second)
    client.post(f"/g/{game.pk}/resign")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [0]
    assert game.seats.get(user=second).resigned
    page = client.get(f"/g/{game.pk}/").content.decode()
    # Told to the player it is about in the second person; to the others by name.
    assert "You resigned." in page and f"{second.name} resigned." not in page
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f"{second.name} resigned." in page and "You resigned." not in page
    client.logout()
    assert f"{second.name} resigned." in client.get(f"/g/{game.pk}/").content.decode()


def test_cached_state_equals_a_fresh_replay(started):
    game, first, second = started
    for user, action in [
        (first, {"type": "add", "n": 2}),
        (first, {"type": "end"}),
        (second, {"type": "add", "n": 1}),
    ]:
        play.act(game.pk, user, action, None)
    game.refresh_from_db()
    cached = replay.current_state(game)
    assert cached == replay.fresh_replay(game)
    assert cached.total == 3


def test_a_request_replays_only_the_new_moves(
    started, monkeypatch, django_capture_on_commit_callbacks
):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    game.refresh_from_db()
    replay.current_state(game)  # warm
    with django_capture_on_commit_callbacks(execute=True):
        play.act(game.pk, first, {"type": "end"}, None)
    game.refresh_from_db()
    calls = []
    engine = game.engine
    original = engine.apply
    monkeypatch.setattr(engine, "apply", lambda *a: calls.append(a) or original(*a))
    replay.current_state(game)
    assert calls == []  # act() stored the new state, nothing to replay


def test_moves_the_rules_force_are_made_at_once(client, started, monkeypatch):
    game, first, _ = started
    engine = game.engine
    # Pretend the rules force "end" right after "add".
    monkeypatch.setattr(
        engine,
        "forced_action",
        lambda state: (state.turn, {"type": "end"}) if state.added else None,
        raising=False,
    )
    client.force_login(first)
    post_action(client, game, {"type": "add", "n": 2}, version=game.version)
    game.refresh_from_db()
    assert list(Move.objects.values_list("number", "seat", "action")) == [
        (1, 0, {"type": "add", "n": 2}),
        (2, 0, {"type": "end"}),
    ]
    assert game.move_count == 2
    assert game.seats.get(number=1).to_move
    assert replay.current_state(game) == replay.fresh_replay(game)


def test_after_a_take_back_the_next_page_needs_no_replay(
    started, monkeypatch, django_capture_on_commit_callbacks
):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    with django_capture_on_commit_callbacks(execute=True):
        play.undo(game.pk, first, None)
    game.refresh_from_db()
    engine = game.engine
    monkeypatch.setattr(engine, "apply", lambda *a: pytest.fail("replayed"))
    monkeypatch.setattr(engine, "setup", lambda *a: pytest.fail("replayed"))
    assert replay.current_state(game).total == 0
