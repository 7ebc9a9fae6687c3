"""The answer to a move from the page: the new board, drawn from the state the move left."""

import pytest

from games import play, replay

pytestmark = pytest.mark.django_db


def _htmx_add(client, game, n=1):
    return client.post(
        f"/g/{game.pk}/act",
        {"action": f'{{"type":"add","n":{n}}}', "request_id": f"answer-{n}-{game.version}"},
        headers={"HX-Request": "true"},
    )


def test_the_answer_draws_the_state_the_move_left_without_rebuilding_it(
    client, started, monkeypatch
):
    game, first, _ = started
    client.force_login(first)
    calls = []
    rebuild = replay.current_state

    def counted(*args, **kwargs):
        calls.append(kwargs.get("locked", False))
        return rebuild(*args, **kwargs)

    monkeypatch.setattr(replay, "current_state", counted)
    response = _htmx_add(client, game, 2)
    assert response.status_code == 200
    assert response.context["page"].view["total"] == 2
    # The move's own read, under the game's lock; the board needed no second one.
    assert calls == [True]


def test_a_change_right_after_the_move_is_drawn_too(client, started, monkeypatch):
    # A computer's move run in the request once the human's is committed (tasks
    # run inline without a worker) changes the game again: the state the first
    # move left is out of date, and the answer must show the game as it is.
    game, first, _ = started
    client.force_login(first)
    act = play.act

    def and_another(game_id, user, action, seen):
        done = act(game_id, user, action, seen)
        act(game_id, user, {"type": "end"}, None)
        return done

    monkeypatch.setattr(play, "act", and_another)
    response = _htmx_add(client, game, 2)
    assert response.status_code == 200
    page = response.context["page"]
    assert page.view["total"] == 2
    assert page.view["active_seats"] == [1] and not page.my_turn


def test_the_menu_still_counts_the_games_waiting_for_a_move(client, started):
    game, first, _ = started
    client.force_login(first)
    page = client.get("/my/").content.decode()
    assert "1 game waits for you" in page


def test_board_actions_are_found_by_type_and_fields():
    from games.actions import BoardActions

    actions = [
        {"type": "add", "n": 1},
        {"type": "end"},
        {"type": "add", "n": 2},
        {"type": "add", "n": 1, "x": 0},
    ]
    view = {"actions": [{"action": a, "label": {"key": "x"}} for a in actions]}
    acts = BoardActions(view, {})
    assert [e["index"] for e in acts.all(type="add", n=1)] == [0, 3]
    assert [e["index"] for e in acts.all(n=1)] == [0, 3]
    assert acts.find(type="end")["index"] == 1
    assert acts.all(type="pass") == [] and acts.find(type="add", n=3) is None
