"""The game page shell, history, polling, chat and the seed commitment."""

import hashlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import play
from games.models import ChatMessage
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_page_shows_prompt_and_only_the_legal_actions_to_the_player_to_move(client, started):
    game, first, second = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Add 1 or 2, then end your turn." in page
    assert "Add 1</button>" in page and "Add 2</button>" in page
    assert "End turn" not in page
    assert "<title>Your turn" in page
    client.force_login(second)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Add 1</button>" not in page
    assert "<title>Your turn" not in page


def test_secrets_of_other_seats_never_reach_the_page(client, started):
    from games import replay

    game, first, second = started
    secrets = replay.current_state(game).secrets
    client.force_login(first)
    client.get(f"/g/{game.pk}/")  # the generic shell does not print secrets at all
    view = game.engine.view(replay.current_state(game), 0)
    assert view["my_secret"] == secrets[0]
    assert str(secrets[1]) not in str(view)


def test_history_shows_each_past_position_without_actions(client, started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/?at=1").content.decode()
    assert "Position after move 1 of 2" in page
    assert "Alice adds 2." in page or "Bob adds 2." in page
    assert "ends the turn" not in page
    assert '<button class="action"' not in page
    partial = client.get(f"/g/{game.pk}/board?at=0").content.decode()
    assert partial.lstrip().startswith('<div id="board-area"')
    assert "Position after move 0 of 2" in partial


def test_a_past_position_does_not_show_the_present_turn_and_clock(client, started):
    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    client.force_login(second)
    now = client.get(f"/g/{game.pk}/").content.decode()
    header = now[now.index('class="game-header"') :].split("</header>")[0]
    assert "to move" in header and "Time left for this move" in header
    past = client.get(f"/g/{game.pk}/?at=1").content.decode()
    header = past[past.index('class="game-header"') :].split("</header>")[0]
    assert "The board shows the game as it was after move 1." in header
    assert "to move" not in header and "Time left" not in header
    assert "It is your turn" not in header


def test_poll_answers_no_change_without_replaying(client, started, monkeypatch):
    game, first, _ = started
    engine = game.engine
    monkeypatch.setattr(engine, "apply", lambda *a: pytest.fail("replayed"))
    monkeypatch.setattr(engine, "setup", lambda *a: pytest.fail("replayed"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/g/{game.pk}/poll?v={game.version}&c={game.chat_count}")
    assert response.status_code == 204
    assert len(queries) <= 3  # the game row, plus session/user lookups


def test_poll_returns_the_board_when_something_moved(client, started):
    game, first, _ = started
    old = game.version
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    response = client.get(f"/g/{game.pk}/poll?v={old}&c=0")
    assert response.status_code == 200
    assert b'id="board-area"' in response.content


def test_version_endpoint(client, started):
    game, _, _ = started
    data = client.get(f"/g/{game.pk}/version").json()
    assert data == {"version": game.version, "move_count": 0, "status": "active"}


def test_polling_stops_when_the_game_ends(client, started):
    game, first, _ = started
    client.force_login(first)
    assert b'hx-trigger="every' in client.get(f"/g/{game.pk}/").content
    play.resign(game.pk, first)
    assert b'hx-trigger="every' not in client.get(f"/g/{game.pk}/").content


def test_seed_commitment_is_shown_and_the_seed_revealed_only_at_the_end(client, started):
    game, first, _ = started
    commitment = hashlib.sha256(f"{game.seed_salt}:{game.seed}".encode()).hexdigest()
    assert game.seed_commitment == commitment
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert commitment in page
    assert str(game.seed) not in page
    play.resign(game.pk, first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert str(game.seed) in page and game.seed_salt in page


def test_chat_is_escaped_and_shown(client, started):
    game, first, _ = started
    client.force_login(first)
    client.post(f"/g/{game.pk}/chat", {"text": "<script>alert(1)</script> good luck"})
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; good luck" in page
    assert "<script>alert(1)" not in page


def test_oversized_chat_is_refused(client, started, settings):
    game, first, _ = started
    client.force_login(first)
    response = client.post(f"/g/{game.pk}/chat", {"text": "x" * (settings.CHAT_MAX_LENGTH + 1)})
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def test_a_refused_chat_line_is_answered_beside_the_chat_form(client, started, settings):
    game, first, _ = started
    client.force_login(first)
    response = client.post(
        f"/g/{game.pk}/chat",
        {"text": "x" * (settings.CHAT_MAX_LENGTH + 1), "c": "0"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    chat = html[html.index('<section class="chat"') :]
    assert 'id="chat-error"' in chat and "at most" in chat
    assert html.count('role="alert"') == 1  # not also above the board
    # a refused move is still said above the board
    response = client.post(
        f"/g/{game.pk}/act", {"action": '{"type": "nope"}'}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400 and 'id="chat-error"' not in response.content.decode()


def test_only_players_chat(client, started):
    game, _, _ = started
    client.force_login(UserFactory())
    assert client.post(f"/g/{game.pk}/chat", {"text": "hi"}).status_code == 403
    assert not ChatMessage.objects.exists()


def test_moderator_hidden_chat_is_not_shown(client, started):
    game, first, _ = started
    play.post_chat(game.pk, first, "rude words")
    ChatMessage.objects.update(hidden=True)
    assert b"rude words" not in client.get(f"/g/{game.pk}/").content


def test_log_is_translated_for_german_players(client, started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    first.language = "de"
    first.save()
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Verlauf" in page  # "History"


def test_finished_game_shows_the_result_box_with_winner_and_reason(client, started):
    game, first, second = started
    play.resign(game.pk, second)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'id="result-h"' in page
    assert "resigned." in page


def test_history_navigation_links_step_through_every_position(client, started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/?at=1").content.decode()
    nav = page.split('class="history-nav"', 1)[1].split("</nav>", 1)[0]
    assert f'hx-get="/g/{game.pk}/board?at=0"' in nav  # first and back
    assert ">Back</a>" in nav and ">Forward</a>" in nav
    assert f'hx-get="/g/{game.pk}/board?at=2"' in nav  # forward
    assert f'hx-get="/g/{game.pk}/board"' in nav  # latest
    # Forward from 1 is the latest position again, with the actions back.
    latest = client.get(f"/g/{game.pk}/board?at=2").content.decode()
    assert "Position after move" not in latest
    # The latest position offers no Forward; every log line links to its position.
    page = client.get(f"/g/{game.pk}/").content.decode()
    nav = page.split('class="history-nav"', 1)[1].split("</nav>", 1)[0]
    assert ">Forward</a>" not in nav and ">Back</a>" in nav
    assert 'href="?at=1" class="move-no"' in page and 'href="?at=2" class="move-no"' in page


def test_the_log_marks_the_move_that_led_to_the_position_shown(client, started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/?at=1").content.decode()
    log = page.split('class="log-entries', 1)[1].split("</ul>", 1)[0]
    assert '<li><mark class="last"><a href="?at=1" class="move-no">move 1</a> ' in log
    assert log.count("<mark") == 1 and log.count("</mark></li>") == 1
    latest = client.get(f"/g/{game.pk}/").content.decode()
    log = latest.split('class="log-entries', 1)[1].split("</ul>", 1)[0]
    assert '<li><mark class="last"><a href="?at=2" class="move-no">move 2</a> ' in log
    assert '<li><a href="?at=1" class="move-no">move 1</a> ' in log  # before it: unmarked


def test_resignation_reason_is_translated(client, started):
    game, first, second = started
    second.language = "de"
    second.save()
    play.resign(game.pk, first)
    client.force_login(second)
    assert f"{first.name} hat aufgegeben." in client.get(f"/g/{game.pk}/").content.decode()


def test_the_since_banner_names_a_changed_board_without_new_moves(started):
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    game, _, _ = started
    page = SimpleNamespace(since=SimpleNamespace(new_entries=0), request_id="r1")
    with translation.override("en"):
        html = render_to_string("games/game.html#since-banner", {"page": page, "game": game})
        assert "Since you last looked, the board has changed (marked)." in html
        assert "0 new moves" not in html
        page.since.new_entries = 2
        html = render_to_string("games/game.html#since-banner", {"page": page, "game": game})
        assert "Since you last looked: 2 new moves, marked." in html


def test_who_resigns_sees_no_since_banner(client, started):
    game, first, second = started
    client.force_login(first)
    client.get(f"/g/{game.pk}/")
    play.resign(game.pk, first)
    assert 'class="since"' not in client.get(f"/g/{game.pk}/").content.decode()


def test_an_archive_page_past_the_end_does_not_say_there_are_no_games(client, started):
    game, first, _ = started
    play.resign(game.pk, first)
    page = client.get("/archive/?after=1.1").content.decode()  # older than 1970
    assert "No games on this page: the archive ends earlier." in page
    assert "No finished game matches this search." not in page
