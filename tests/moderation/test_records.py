"""Game records: export -> verify_record round trip, tampering refused, running
exports redacted; aborted games stay listed."""

import json
import random

import pytest
from django.core.management import CommandError, call_command

from games import play, replay
from games.models import Game
from games.record import RecordError
from games.record import verify as verify_record
from tests.factories import UserFactory, running_game
from tests.tal.tal_helpers import bot_action

from .test_reports_and_chat import finish_by_engine

pytestmark = pytest.mark.django_db


def finish_tal(game):
    rng = random.Random(3)
    engine = game.engine
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = replay.current_state(game)
        seat = rng.choice(sorted(engine.active_seats(state)))
        action = json.loads(json.dumps(bot_action(state, seat, rng)))
        play.act(game.pk, game.seats.get(number=seat).user, action, None)
    raise AssertionError("the game did not end")


def download(client, game, tmp_path):
    response = client.get(f"/g/{game.pk}/record.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    path = tmp_path / f"game-{game.pk}.json"
    path.write_bytes(response.content)
    return path, json.loads(response.content)


def verify(path, capsys):
    call_command("verify_record", str(path))
    return capsys.readouterr().out


@pytest.mark.parametrize("kind", ["siam", "tal"])
def test_a_finished_game_downloads_and_verifies(client, users, kind, tmp_path, capsys):
    game = running_game(kind, users[:3] if kind == "siam" else users[:2])
    (finish_by_engine if kind == "siam" else finish_tal)(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert f"/g/{game.pk}/record.json" in client.get(f"/g/{game.pk}/").content.decode()
    path, record = download(client, game, tmp_path)
    assert record["seed"] == game.seed and record["seed_salt"] == game.seed_salt
    assert len(record["moves"]) == game.move_count and record["result"] == game.result
    assert all(move["at"] for move in record["moves"])
    assert "Record verified" in verify(path, capsys)

    # Any change is refused with a message that says what does not hold.
    def refused(change, message):
        data = json.loads(path.read_text())
        change(data)
        bad = tmp_path / "tampered.json"
        bad.write_text(json.dumps(data))
        with pytest.raises(CommandError, match=message):
            call_command("verify_record", str(bad))

    refused(lambda d: d.update(seed=d["seed"] + 1), "commitment")
    refused(lambda d: d["result"].update(winners=[9]), "winners")
    refused(lambda d: d["moves"].pop(), "do not end the game")
    refused(lambda d: d["moves"][0].update(action={"type": "cheat"}), "not legal|not a valid")
    refused(lambda d: d.update(status="aborted"), "not finished")


def test_a_resigned_game_verifies_with_the_team_rule(client, users, tmp_path, capsys):
    four = users + [UserFactory(username="dora")]
    game = running_game("siam", four)
    play.resign(game.pk, game.seats.get(number=3).user)
    path, record = download(client, game, tmp_path)
    assert record["result"]["winners"] == [0, 2]
    assert "Record verified" in verify(path, capsys)
    record["result"]["winners"] = [0]
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="winners"):
        call_command("verify_record", str(path))


def test_a_running_tal_export_holds_no_secrets(client, users):
    game = running_game("tal", users[:2])
    state = replay.current_state(game)
    bidder = state.current
    user = game.seats.get(number=bidder).user
    for action in (
        {"type": "bid", "group": 1, "rings": 4},
        {"type": "bid", "group": 1, "rings": 3},
    ):
        play.act(game.pk, user, action, None)
    other = game.seats.exclude(number=bidder).get().user
    game.refresh_from_db()
    client.force_login(user)
    mine = client.get(f"/g/{game.pk}/record.json").json()
    assert mine["complete"] is False and mine["viewer"] == bidder
    for viewer in (other, None):
        client.logout()
        if viewer:
            client.force_login(viewer)
        data = client.get(f"/g/{game.pk}/record.json").json()
        body = json.dumps(data)
        assert "moves" not in data and "seed" not in data and "seed_salt" not in data
        assert str(game.seed) not in body and game.seed_salt not in body
        assert '"rings": 4' not in body and '"rings": 3' not in body
        assert data["view"] == game.engine.view(replay.current_state(game), data["viewer"]) | {
            "actions": data["view"]["actions"],
            "prompt": data["view"]["prompt"],
        }
    with pytest.raises(RecordError, match="running game"):
        verify_record(data)


def test_a_running_count_export_hides_the_other_seats_secret(client, started):
    game, first, second = started
    state = replay.current_state(game)
    client.force_login(first)
    body = client.get(f"/g/{game.pk}/record.json").content.decode()
    assert str(state.secrets[0]) in body and str(state.secrets[1]) not in body
    assert str(game.seed) not in body


def test_aborted_games_keep_board_reason_and_stay_listed(client, started):
    from moderation import actions

    from .admin_helpers import moderator

    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    actions.abort_game(moderator(), game, "Players asked for it")
    game.refresh_from_db()
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Players asked for it" in page and "Aborted" in page
    assert "adds 2" in page  # the history is still there
    my_games = client.get("/my/").content.decode()
    assert f'href="/g/{game.pk}/"' in my_games.split("finished-games")[1]
    archive = client.get("/archive/").content.decode()
    assert f'href="/g/{game.pk}/"' in archive and "aborted" in archive
    assert "aborted" in client.get("/archive/?mine=1").content.decode()
