"""Deadlines are enforced: the timeout policy, the sweep, and its races."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from games import deadlines, play, tasks
from games.models import Game
from tests.conftest import need_service
from tests.factories import UserFactory
from tests.moderation.admin_helpers import moderator, run_action

from .clock import DAY, START, finished_signals, mover, new_game

MINUTE = timedelta(minutes=1)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def pair(db):
    return [UserFactory(display_name="Alice"), UserFactory(display_name="Bob")]


@pytest.mark.django_db
def test_nothing_happens_before_the_deadline(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    assert game.deadline == START + 3 * DAY
    clock.shift(3 * DAY - MINUTE)
    assert deadlines.sweep()["timed_out"] == 0
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_a_move_gives_the_next_player_the_full_time_again(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    clock.shift(2 * DAY)
    first = mover(game)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    game.refresh_from_db()
    assert game.deadline == START + 3 * DAY  # a step within the turn gives no time back
    clock.shift(DAY / 2)
    play.act(game.pk, first, {"type": "end"}, None)
    game.refresh_from_db()
    assert game.deadline == START + 2.5 * DAY + 3 * DAY
    clock.shift(2 * DAY)
    assert deadlines.sweep()["timed_out"] == 0


@pytest.mark.django_db
def test_a_take_back_gives_no_time_back(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    first = mover(game)
    clock.shift(2 * DAY)
    for _ in range(3):
        play.act(game.pk, first, {"type": "add", "n": 1}, None)
        play.undo(game.pk, first, None)
    game.refresh_from_db()
    assert game.deadline == START + 3 * DAY


@pytest.mark.django_db
def test_the_late_player_loses_and_everyone_is_told(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    late = game.seats.get(to_move=True).number
    clock.shift(3 * DAY + MINUTE)
    with finished_signals() as told:
        counts = deadlines.sweep()
    assert counts["timed_out"] == counts["lost"] == 1
    assert told == [(game.pk, Game.Status.FINISHED)]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [1 - late]
    assert game.result["ranking"] == [1 - late, late]
    assert game.result["reason"] == {
        "key": "{player} did not move in time and lost.",
        "args": {"player": late},
    }
    assert not game.seats.filter(to_move=True).exists()


@pytest.mark.django_db
def test_the_result_page_says_who_ran_out_of_time(clock, client, count_kind, pair):
    game = new_game(count_kind, pair)
    late_user = mover(game)
    clock.shift(3 * DAY + MINUTE)
    deadlines.sweep()
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f"{late_user.name} did not move in time and lost." in page


@pytest.mark.django_db
def test_running_the_sweep_twice_changes_nothing_more(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    clock.shift(3 * DAY + MINUTE)
    with finished_signals() as told:
        deadlines.sweep()
        game.refresh_from_db()
        before = (game.status, game.version, game.result, game.finished_at)
        clock.shift(MINUTE)
        assert deadlines.sweep() == dict.fromkeys(
            ("unpaused", "paused", "resumed", "timed_out", "lost", "aborted", "failed"), 0
        )
    game.refresh_from_db()
    assert (game.status, game.version, game.result, game.finished_at) == before
    assert len(told) == 1


@pytest.mark.django_db
def test_time_out_only_acts_on_exactly_the_deadline_it_was_given(clock, count_kind, pair):
    game = new_game(count_kind, pair)
    old = game.deadline
    assert play.time_out(game.pk, old) is None  # not yet due
    clock.shift(2 * DAY)
    first = mover(game)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    clock.shift(2 * DAY)
    # A sweep that read the game before this move must not end it.
    assert play.time_out(game.pk, old) is None
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_the_abort_policy_aborts_the_game_and_tells_everyone(clock, client, count_kind, pair):
    game = new_game(count_kind, pair, timeout_policy=Game.TimeoutPolicy.ABORT)
    late_user = mover(game)
    clock.shift(3 * DAY + MINUTE)
    with finished_signals() as told:
        assert deadlines.sweep()["aborted"] == 1
    assert told == [(game.pk, Game.Status.ABORTED)]
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.result["winners"] == []
    assert game.result["reason"]["key"] == "The game was aborted: {players} did not move in time."
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f"The game was aborted: {late_user.name} did not move in time." in page
    assert "It is your turn" not in page


@pytest.mark.django_db
def test_in_the_team_game_the_late_players_partner_loses_too(clock):
    users = [UserFactory() for _ in range(4)]
    game = new_game("siam", users, map="siam")
    late = game.seats.get(to_move=True).number
    clock.shift(3 * DAY + MINUTE)
    deadlines.sweep()
    game.refresh_from_db()
    team = sorted({late, (late + 2) % 4})
    others = sorted({0, 1, 2, 3} - set(team))
    assert game.result["winners"] == others
    assert game.result["ranking"] == others + team
    assert game.result["details"] == {"timed_out": [late]}


def _tal_plan_phase(users):
    """A three-player Tal game driven to its simultaneous plan phase."""
    game = new_game("tal", users)
    engine = game.engine
    from games import replay

    while game.seats.filter(to_move=True).count() < 2:
        state = replay.current_state(game)
        seat = min(engine.active_seats(state))
        action = engine.legal_actions(state, seat)[0]
        play.act(game.pk, game.seats.get(number=seat).user, action, None)
        game.refresh_from_db()
    return game


def _hand_in_plan(game, seat):
    from games import replay

    user = game.seats.get(number=seat).user
    for index in (0, 1):
        state = replay.current_state(game)
        action = next(a for a in game.engine.legal_actions(state, seat) if a.get("index") == index)
        game = play.act(game.pk, user, action, None)
    play.act(game.pk, user, {"type": "submit_plan"}, None)


@pytest.mark.django_db
def test_in_a_simultaneous_phase_everyone_still_to_move_is_late(clock):
    users = [UserFactory() for _ in range(3)]
    game = _tal_plan_phase(users)
    assert set(game.seats.filter(to_move=True).values_list("number", flat=True)) == {0, 1, 2}
    _hand_in_plan(game, 1)
    game.refresh_from_db()
    assert set(game.seats.filter(to_move=True).values_list("number", flat=True)) == {0, 2}
    clock.shift(3 * DAY + MINUTE)
    assert deadlines.sweep()["lost"] == 1
    game.refresh_from_db()
    assert game.result["winners"] == [1]
    assert game.result["ranking"] == [1, 0, 2]
    assert game.result["reason"] == {
        "key": "{players} did not move in time and lost.",
        "args": {"players": [0, 2]},
    }
    # Read as a sentence: "A and C", "A und C".
    from django.utils import translation

    from games import text

    names = {s.number: s.user.name for s in game.seats.all()}
    late = f"{names[0]} and {names[2]} did not move in time and lost."
    assert text.render(game.result["reason"], names) == late
    with translation.override("de"):
        said = text.render(game.result["reason"], names)
    assert said.startswith(f"{names[0]} und {names[2]} ")


@pytest.mark.django_db
def test_when_everyone_is_late_nobody_wins_and_the_game_is_aborted(clock):
    users = [UserFactory() for _ in range(3)]
    game = _tal_plan_phase(users)
    clock.shift(3 * DAY + MINUTE)
    with finished_signals() as told:
        assert deadlines.sweep()["aborted"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.result["details"] == {"timed_out": [0, 1, 2]}
    assert told == [(game.pk, Game.Status.ABORTED)]


@pytest.mark.django_db
def test_one_failing_game_does_not_stop_the_sweep(clock, count_kind, pair, monkeypatch):
    broken = new_game(count_kind, pair)
    sound = new_game(count_kind, [UserFactory(), UserFactory()])
    real = play.time_out

    def time_out(game_id, deadline):
        if game_id == broken.pk:
            raise RuntimeError("a game that cannot be loaded")
        return real(game_id, deadline)

    monkeypatch.setattr(play, "time_out", time_out)
    clock.shift(3 * DAY + MINUTE)
    counts = deadlines.sweep()
    assert (counts["failed"], counts["timed_out"]) == (1, 1)
    sound.refresh_from_db()
    broken.refresh_from_db()
    assert (sound.status, broken.status) == (Game.Status.FINISHED, Game.Status.ACTIVE)


@pytest.mark.django_db
def test_abort_ends_a_running_game_without_winners(count_kind, pair):
    game = new_game(count_kind, pair)
    reason = {"key": "Aborted by a moderator.", "args": {}}
    with finished_signals() as told:
        play.abort(game.pk, reason)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.result["reason"] == reason
    assert told == [(game.pk, Game.Status.ABORTED)]
    assert not game.seats.filter(to_move=True).exists()
    with pytest.raises(play.PlayError):
        play.abort(game.pk, reason)


@pytest.mark.django_db
def test_the_admin_abort_tells_the_players_of_a_running_game(client, count_kind, pair):
    running = new_game(count_kind, pair)
    waiting = play.create_game(
        pair[0], count_kind, title="Open", players=2, options={}, time_limit_days=3, private=False
    )
    client.force_login(moderator())
    with finished_signals() as told:
        run_action(
            client, "/admin/games/game/", "abort_game", [running.pk, waiting.pk], "Spam game"
        )
    assert told == [(running.pk, Game.Status.ABORTED)]
    assert set(Game.objects.values_list("status", flat=True)) == {Game.Status.ABORTED}
    running.refresh_from_db()
    assert running.result["reason"]["key"] == "A moderator aborted the game: {note}"
    assert running.result["reason"]["args"] == {"note": "Spam game"}
    assert waiting.pk != running.pk


@pytest.mark.django_db
def test_the_management_command_sweeps_and_the_dry_run_changes_nothing(
    clock, count_kind, pair, capsys
):
    game = new_game(count_kind, pair)
    clock.shift(3 * DAY + MINUTE)
    call_command("sweep_deadlines", "--dry-run")
    assert f"game {game.pk}: deadline" in capsys.readouterr().out
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    call_command("sweep_deadlines")
    assert "1 timed_out" in capsys.readouterr().out
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    call_command("check_replays", "--all")  # a timed-out result is not a broken replay


@pytest.mark.django_db
def test_the_celery_task_is_scheduled_and_sweeps(clock, count_kind, pair):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]
    assert entry["task"] == tasks.sweep_deadlines.name
    game = new_game(count_kind, pair)
    clock.shift(3 * DAY + MINUTE)
    tasks.sweep_deadlines.delay()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


@pytest.mark.django_db
def test_the_policy_is_chosen_at_creation_and_shown(client, count_kind, pair):
    client.force_login(pair[0])
    form = client.get("/new/count/").content.decode()
    assert 'name="timeout_policy"' in form and 'name="vacation_allowed"' in form
    client.post(
        "/new/count/",
        {
            "title": "Strict",
            "players": 2,
            "time_limit_days": 3,
            "option_target": "10",
            "timeout_policy": "abort",
        },
    )
    game = Game.objects.get()
    assert game.timeout_policy == Game.TimeoutPolicy.ABORT and not game.vacation_allowed
    waiting = client.get(f"/g/{game.pk}/").content.decode()
    assert "the game is aborted" in waiting and "does not stop the clock" in waiting
    play.join(game.pk, pair[1])
    board = client.get(f"/g/{game.pk}/").content.decode()
    assert "the game is aborted" in board


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["time_out", "sweep"])
def test_two_sweeps_at_once_have_exactly_one_outcome(count_kind, how):
    """Both racers hold the overdue game (time_out), or each runs a whole sweep."""
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    with time_machine.travel(START, tick=False) as clock:
        game = new_game(count_kind, [UserFactory(), UserFactory()])
        clock.shift(3 * DAY + MINUTE)
        barrier = threading.Barrier(2)
        ended = []

        def run():
            barrier.wait()
            try:
                if how == "time_out":
                    ended.append(int(play.time_out(game.pk, game.deadline) is not None))
                else:
                    ended.append(deadlines.sweep()["timed_out"])
            finally:
                connection.close()

        with finished_signals(linger=0.3) as told:
            threads = [threading.Thread(target=run) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert deadlines.sweep()["timed_out"] == 0
    assert sorted(ended) == [0, 1]
    assert told == [(game.pk, Game.Status.FINISHED)]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
