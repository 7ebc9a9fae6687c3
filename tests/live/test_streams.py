"""A game page's stream, served for real (uvicorn, config.asgi) on both hubs: it tells
each change the moment it is committed, catches a reconnecting page up, beats while
nothing happens, counts its player's streams, and is nobody else's business."""

from __future__ import annotations

import threading

import pytest
from django.db.models import F
from django.test import Client

from games import play, replay
from games.models import Game
from live import keeper
from tests.factories import UserFactory

from .conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(count_kind):
    anna = UserFactory(username="anna", display_name="Anna")
    bert = UserFactory(username="bert", display_name="Bert")
    game = play.create_game(
        anna, count_kind, title="Live one", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)
    game.refresh_from_db()
    return game


def seat_user(game, number):
    return game.seats.get(number=number).user


def to_move(game):
    game.refresh_from_db()
    return game.seats.get(to_move=True).user


def add_one(game):
    """One move (adding 1, or ending the turn after adding); the new "version chat"."""
    state = replay.current_state(game)
    mover = to_move(game)
    number = game.seats.get(user=mover).number
    action = game.engine.legal_actions(state, number)[0]
    play.act(game.pk, mover, action, None)
    game.refresh_from_db()
    return f"{game.version} {game.chat_count}"


def live_path(game, v=None, c=None):
    path = f"/g/{game.pk}/live"
    return path if v is None else f"{path}?v={v}&c={c}"


def test_a_move_reaches_every_stream_of_the_game_at_once(hub_mode, game, streams):
    player = streams(live_path(game, game.version, game.chat_count), seat_user(game, 1))
    watcher = streams(live_path(game, game.version, game.chat_count), UserFactory())
    anonymous = streams(live_path(game, game.version, game.chat_count))
    assert player.status == watcher.status == anonymous.status == 200
    assert player.response.getheader("Content-Type") == "text/event-stream"
    now = add_one(game)
    for stream in (player, watcher, anonymous):
        event = stream.next(timeout=3)
        assert (event["event"], event["data"]) == ("game", now)
        assert event["id"] == now.replace(" ", ".")
    # The version moved: the players hear that their badge may have changed.
    assert player.next(timeout=3)["event"] == "badge"
    said = play.post_chat(game.pk, seat_user(game, 0), "hello")
    assert said.text == "hello"
    game.refresh_from_db()
    for stream in (player, watcher, anonymous):
        event = stream.next(timeout=3)
        assert (event["event"], event["data"]) == ("game", f"{game.version} {game.chat_count}")


def test_a_page_behind_is_told_at_once_and_a_page_up_to_date_is_not(hub_mode, game, streams):
    behind = streams(live_path(game, game.version - 1, game.chat_count))
    event = behind.next(timeout=3)
    assert event["data"] == f"{game.version} {game.chat_count}"
    current = streams(live_path(game, game.version, game.chat_count))
    now = add_one(game)
    # The first event the up-to-date page hears is the move, not what it had already.
    assert current.next(timeout=3)["data"] == now
    assert current.last_id == now.replace(" ", ".")


def test_a_reconnect_with_last_event_id_loses_no_version(hub_mode, game, streams):
    first = streams(live_path(game, game.version, game.chat_count))
    told = add_one(game)
    assert first.next(timeout=3)["data"] == told
    last_id = first.last_id
    first.close()
    # While the page is away (a server restarting, a network change), two moves.
    add_one(game)
    now = add_one(game)
    again = streams(live_path(game, 0, 0), last_event_id=last_id)
    event = again.next(timeout=3)
    assert (event["event"], event["data"]) == ("game", now)
    # A reconnect that missed nothing is told nothing until the next change.
    latest = again.last_id
    again.close()
    calm = streams(live_path(game, 0, 0), last_event_id=latest)
    later = add_one(game)
    assert calm.next(timeout=3)["data"] == later


def test_a_quiet_stream_beats_and_ends_in_time(hub_mode, game, streams, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    settings.LIVE_STREAM_SECONDS = 1.5
    stream = streams(live_path(game, game.version, game.chat_count))
    assert stream.next(timeout=5) is None  # the server ended it (the browser reconnects)
    assert stream.comments >= 3


def test_streams_per_player_are_capped(hub_mode, game, streams, settings):
    settings.LIVE_STREAMS_PER_USER = 2
    anna = seat_user(game, 0)
    path = live_path(game, game.version, game.chat_count)
    first, second = streams(path, anna), streams(path, anna)
    assert (first.status, second.status) == (200, 200)
    assert streams(path, anna).status == 429  # the third tab polls
    assert streams(path, seat_user(game, 1)).status == 200  # another player is not counted
    first.close()

    def place_freed():
        keeper.run_once(refresh=False, presence_due=False, local_due=False)
        stream = streams(path, anna)
        return stream.status == 200

    wait_for(place_freed, 5, "a closed stream's place was not given back")


def test_a_private_games_stream_is_a_404_to_outsiders(hub_mode, count_kind, streams):
    alice = UserFactory(username="alice", display_name="Aliceinwonder")
    bob = UserFactory(username="bob")
    game = play.create_game(
        alice, count_kind, title="Secret-Title-9", players=2, options={}, time_limit_days=3,
        private=True,
    )  # fmt: skip
    play.join(game.pk, bob)
    for user in (None, UserFactory(username="eve")):
        stream = streams(f"/g/{game.pk}/live", user)
        assert stream.status == 404
        body = stream.response.read().decode()
        assert "Secret-Title-9" not in body and "Aliceinwonder" not in body
    assert streams(f"/g/{game.pk}/live", bob).status == 200
    assert streams(f"/g/{game.pk + 1000}/live", bob).status == 404


def test_what_is_not_a_stream_request_gets_no_stream(game, streams):
    plain = streams(live_path(game), seat_user(game, 0), accept=False)
    assert plain.status == 406
    # A WSGI server would hold a thread per stream: it has none, and the page polls.
    # (In a thread of its own, as a WSGI server's: this one may run Playwright's loop.)
    answers = []
    asked = threading.Thread(
        target=lambda: answers.append(
            Client().get(live_path(game), headers={"Accept": "text/event-stream"})
        )
    )
    asked.start()
    asked.join(30)
    assert answers[0].status_code == 204


def test_without_redis_changes_made_by_another_process_are_found(game, streams, settings):
    settings.LIVE_REDIS_URL = ""
    stream = streams(live_path(game, game.version, game.chat_count), seat_user(game, 0))
    wait_for(lambda: keeper.hub.local().channels(), 3, "the stream did not subscribe")
    # Another process (the Celery worker beside `make run`) moved: no signal here.
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    keeper.run_once(refresh=False, presence_due=False, local_due=True)
    game.refresh_from_db()
    assert stream.next(timeout=3)["data"] == f"{game.version} {game.chat_count}"


def test_a_players_open_stream_keeps_them_present(hub_mode, game, streams):
    from games.models import Seat

    bert = seat_user(game, 1)
    seat = Seat.objects.get(game=game, user=bert)
    assert seat.last_seen is None
    stream = streams(live_path(game, game.version, game.chat_count), bert)
    assert stream.status == 200
    seat.refresh_from_db()
    assert seat.last_seen is not None  # as the page's poll did
    Seat.objects.filter(pk=seat.pk).update(last_seen=None)
    type(bert).objects.filter(pk=bert.pk).update(last_seen=None)
    keeper.run_once(refresh=False, presence_due=True, local_due=False)
    seat.refresh_from_db()
    bert.refresh_from_db()
    assert seat.last_seen is not None
    assert bert.last_seen is not None  # the online dot stays while the page is open
    stream.close()
    wait_for(lambda: not keeper._watching, 5, "the closed stream still counts as present")
