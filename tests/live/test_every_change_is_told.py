"""Every operation that changes what a game's pages show (its version or its chat count)
tells the game's channel after its commit, and its players' channels when the version
moved; a refused operation, a rollback and a change the pages do not show tell nobody.
The one place is ``games.play`` (``locked`` and ``create_game``): these tests walk the
paths that go through it, so a new path that bypasses it shows up here."""

from __future__ import annotations

import datetime
import random

import pytest
from django.utils import timezone

from botplay.accounts import bot_user
from community import cancel, rematch
from enginekit import msg
from games import play, replay, signals
from games.models import ChatMessage, Game, Seat
from live import channels, hub
from lobby import invites
from moderation import actions
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def told(monkeypatch):
    """Every message published, in order: (channel, data)."""
    published: list[tuple[str, str]] = []
    real = hub.publish

    def publish(messages):
        published.extend(messages)
        return real(messages)

    monkeypatch.setattr(hub, "publish", publish)
    return published


@pytest.fixture
def people():
    return [UserFactory(username=n, display_name=n.title()) for n in ("anna", "bert", "cleo")]


def new_game(kind, host, players=2, **options):
    return play.create_game(
        host, kind, title="T", players=players, options={}, time_limit_days=3, private=False,
        **options,
    )  # fmt: skip


def now_of(game_id: int) -> tuple[str, str]:
    game = Game.objects.get(pk=game_id)
    return channels.game_channel(game.pk), f"{game.version} {game.chat_count}"


def badges(users) -> set[tuple[str, str]]:
    return {(channels.user_channel(u.pk), channels.BADGE) for u in users}


def running(count_kind, people, players=2):
    game = new_game(count_kind, people[0], players)
    for user in people[1:players]:
        play.join(game.pk, user)
    game.refresh_from_db()
    return game


def mover(game) -> Seat:
    return Game.objects.get(pk=game.pk).seats.select_related("user").get(to_move=True)


def test_creating_joining_starting_and_leaving(count_kind, people, told):
    anna, bert, cleo = people
    game = new_game(count_kind, anna, 3)
    assert told == [now_of(game.pk), *badges([anna])]  # "My games" lists it
    told.clear()
    play.join(game.pk, bert)
    assert now_of(game.pk) in told and badges([anna, bert]) <= set(told)
    told.clear()
    play.leave(game.pk, bert)
    assert now_of(game.pk) in told
    told.clear()
    play.join(game.pk, bert)
    play.join(game.pk, cleo)  # full: the game starts
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert told[-4:][0] == now_of(game.pk) and badges(people) <= set(told)


def test_a_game_seated_elsewhere_is_told_to_its_players(count_kind, people, told):
    """A tournament's game starts with its players seated: their lists show it at once."""
    anna, bert, _cleo = people
    game = play.create_seated_game(
        count_kind, [bert, anna], title="Round 1", options={}, time_limit_days=3
    )
    assert told[0] == now_of(game.pk)
    assert badges([anna, bert]) <= set(told)


def test_a_move_a_take_back_a_chat_line_and_resigning(count_kind, people, told):
    game = running(count_kind, people)
    told.clear()
    seat = mover(game)
    play.act(game.pk, seat.user, {"type": "add", "n": 1}, None)
    assert told[0] == now_of(game.pk) and set(told[1:]) == badges(people[:2])
    told.clear()
    play.undo(game.pk, seat.user, None)
    assert told[0] == now_of(game.pk)
    told.clear()
    play.post_chat(game.pk, seat.user, "hi")
    assert told == [now_of(game.pk)]  # only the chat moved: nobody's badge changed
    told.clear()
    play.resign(game.pk, seat.user)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert told[0] == now_of(game.pk) and set(told[1:]) == badges(people[:2])


def test_a_request_an_agreed_pause_and_its_early_end(count_kind, people, told):
    from agreements import flows
    from agreements.models import Request

    game = running(count_kind, people)
    seat = mover(game)
    other = next(p for p in people[:2] if p.pk != seat.user_id)
    told.clear()
    request = flows.ask(game.pk, seat.user, Request.Kind.PAUSE, game.deadline + _DAYS_3)
    assert told[0] == now_of(game.pk)  # the others' pages show the request at once
    told.clear()
    flows.answer(game.pk, other, request.pk, True)
    assert Game.objects.get(pk=game.pk).paused_until is not None
    assert told[0] == now_of(game.pk)
    told.clear()
    request = flows.ask(game.pk, other, Request.Kind.RESUME)
    flows.answer(game.pk, seat.user, request.pk, True)
    assert Game.objects.get(pk=game.pk).paused_until is None
    assert now_of(game.pk) in told


_DAYS_3 = datetime.timedelta(days=3)


def test_nothing_is_told_of_a_refusal_or_of_what_pages_do_not_show(count_kind, people, told):
    game = running(count_kind, people)
    told.clear()
    waiting = Game.objects.get(pk=game.pk).seats.get(to_move=False).user
    with pytest.raises(play.PlayError):
        play.act(game.pk, waiting, {"type": "add", "n": 1}, None)
    with pytest.raises(play.PlayError):
        play.post_chat(game.pk, waiting, "")
    assert play.sync_clock(game.pk) is None  # nothing to change
    assert told == []


def test_the_clock_timing_out_a_seat_opening_and_taken_stand_ins(count_kind, people, told):
    game = running(count_kind, people)
    for policy in (Game.TimeoutPolicy.LOSE, Game.TimeoutPolicy.SUBSTITUTE):
        game = running(count_kind, people)
        past = timezone.now() - datetime.timedelta(hours=1)
        Game.objects.filter(pk=game.pk).update(deadline=past, timeout_policy=policy)
        told.clear()
        assert play.time_out(game.pk, past) in ("lost", "opened")
        assert now_of(game.pk) in told
    told.clear()
    play.take_seat(game.pk, people[2])  # a substitute takes the open seat
    assert now_of(game.pk) in told and badges([people[2]]) <= set(told)


def test_a_computer_standing_in_its_move_and_the_player_taking_the_seat_back(people, told):
    anna, bert, _ = people
    game = running_game("tal", [anna, bert])
    past = timezone.now() - datetime.timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(deadline=past, timeout_policy="stand_in")
    late = mover(game).user
    told.clear()
    assert play.time_out(game.pk, past) == "stood_in"
    assert now_of(game.pk) in told  # the computer's moves (eager) were told too, each
    versions = [int(d.split()[0]) for c, d in told if c == channels.game_channel(game.pk)]
    assert versions == sorted(versions) and len(versions) >= 2
    told.clear()
    play.reclaim_seat(game.pk, late)
    assert told[0] == now_of(game.pk)


def test_a_computer_players_move_is_told(people, told):
    hanna = people[0]
    game = running_game("siam", [hanna, bot_user("random", 1)])
    rng = random.Random(1)
    for _ in range(60):  # until a move of hers hands the turn to the computer
        told.clear()
        seat = mover(game)
        assert seat.user == hanna  # the computer's turns are played before act returns
        play.act(game.pk, hanna, rng.choice(_legal(game, seat.number)), None)
        mine = [d for c, d in told if c == channels.game_channel(game.pk)]
        if len(mine) >= 2:
            break
    # Hanna's move, then the computer's (run after the commit, as a task): each told.
    assert len(mine) >= 2 and mine[-1] == now_of(game.pk)[1]


def _legal(game, number):
    game = Game.objects.get(pk=game.pk)
    return game.engine.legal_actions(replay.current_state(game), number)


def test_moderators_aborting_removing_and_hiding_a_line(count_kind, people, told):
    moderator = UserFactory(username="mod", is_staff=True)
    game = running(count_kind, people)
    play.post_chat(game.pk, people[0], "rude")
    line = ChatMessage.objects.get(game=game)
    told.clear()
    actions.hide_message(moderator, line, "rude")
    assert told == [now_of(game.pk)]
    told.clear()
    actions.unhide_message(moderator, line, "fine after all")
    assert told == [now_of(game.pk)]
    told.clear()
    actions.remove_player(moderator, Seat.objects.get(game=game, user=people[1]), "cheating")
    assert now_of(game.pk) in told
    other = running(count_kind, people)
    told.clear()
    actions.abort_game(moderator, other, "broken")
    assert told[0] == now_of(other.pk)


def test_cancel_votes_rematches_and_invitations(count_kind, people, told):
    anna, bert, cleo = people
    game = running(count_kind, people)
    told.clear()
    assert cancel.vote(game.pk, anna, True) == "agreed"
    assert told[0] == now_of(game.pk)
    told.clear()
    assert cancel.vote(game.pk, bert, True) == "cancelled"
    assert told[0] == now_of(game.pk)
    finished = running(count_kind, people)
    play.resign(finished.pk, anna)
    told.clear()
    rematch.answer(finished.pk, bert, True)
    assert now_of(finished.pk) in told and badges([anna, bert]) <= set(told)
    waiting = new_game(count_kind, anna, 2)
    told.clear()
    invites.invite(waiting.pk, anna, cleo.username)
    assert badges([cleo]) <= set(told)


def test_the_signal_comes_after_the_commit_never_before_nor_on_a_rollback(count_kind, people):
    from django.db import transaction

    game = running(count_kind, people)
    heard = []

    def listen(sender, game_id, version, chat_count, **kwargs):
        heard.append((version, Game.objects.get(pk=game_id).version))

    signals.changed.connect(listen)
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            play.post_chat(game.pk, people[0], "never said")
            raise RuntimeError("rolled back")
        assert heard == []
        with transaction.atomic():
            play.abort(game.pk, msg("stop"))
            assert heard == []  # not inside the transaction
        game.refresh_from_db()
        assert heard == [(game.version, game.version)]  # committed: the row says so already
    finally:
        signals.changed.disconnect(listen)
