"""A player's own lists (my games, the archive's "mine") read the seat's copy of when
its game ended (``Seat.ended_at``): that copy follows the game through every way a game
ends, and the lists stay what they were: the running games with the player's turn
first, the finished ones newest first, paged."""

import re
from datetime import timedelta

import pytest
import time_machine

from community import cancel
from games import deadlines, play, registry
from games.models import Game, Seat
from moderation import actions
from tests.factories import UserFactory
from tests.moderation.admin_helpers import moderator

from .clock import START, mover, new_game
from .pager import link

pytestmark = pytest.mark.django_db

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


def assert_seats_in_sync() -> None:
    """Every seat's ended_at says whether, and when, its game ended."""
    for seat in Seat.objects.select_related("game"):
        game = seat.game
        if game.status not in OVER:
            assert seat.ended_at is None, (game.title, game.status)
        elif game.finished_at is not None:
            assert seat.ended_at == game.finished_at, (game.title, game.status)
        else:  # stopped before it started
            assert game.started_at is None and seat.ended_at is not None, game.title


def _count_to_ten(game):
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        user = mover(game)
        play.act(game.pk, user, {"type": "add", "n": 2}, None)
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            play.act(game.pk, user, {"type": "end"}, None)


def _resign(game):
    play.resign(game.pk, mover(game))


def _time_out(game):
    game.refresh_from_db()
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) in ("lost", "aborted")


def _cancel(game):
    for seat in game.seats.all():
        cancel.vote(game.pk, seat.user, True)


def _moderator_abort(game):
    actions.abort_game(moderator(), game, "Spam")


ENDINGS = {
    "played to the end": (_count_to_ten, {}, Game.Status.FINISHED),
    "resigned": (_resign, {}, Game.Status.FINISHED),
    "timed out": (_time_out, {}, Game.Status.FINISHED),
    "timed out, abort policy": (
        _time_out,
        {"timeout_policy": Game.TimeoutPolicy.ABORT},
        Game.Status.ABORTED,
    ),
    "cancelled by agreement": (_cancel, {}, Game.Status.ABORTED),
    "aborted by a moderator": (_moderator_abort, {}, Game.Status.ABORTED),
}


@pytest.mark.parametrize("ending", ENDINGS)
def test_the_seats_learn_when_their_game_ends(count_kind, ending):
    end, options, status = ENDINGS[ending]
    with time_machine.travel(START, tick=True):
        players = [UserFactory(), UserFactory(), UserFactory()]
        game = new_game(count_kind, players, **options)
        other = new_game(count_kind, players[:2])
        assert_seats_in_sync()
        end(game)
    game.refresh_from_db()
    assert game.status == status
    assert_seats_in_sync()
    assert set(Seat.objects.filter(ended_at=game.finished_at)) == set(game.seats.all())
    assert not other.seats.filter(ended_at__isnull=False).exists()


def test_a_game_stopped_before_its_start_leaves_the_running_games(client, count_kind):
    alice, bob = UserFactory(), UserFactory()
    waiting = play.create_game(
        alice, count_kind, title="Never started", players=3, options={}, time_limit_days=3,
        private=False,
    )  # fmt: skip
    play.join(waiting.pk, bob)
    client.force_login(alice)
    assert "Never started" in client.get("/my/").content.decode()
    _moderator_abort(waiting)
    assert_seats_in_sync()
    # Not running any more, and without a board it is in no list of finished games.
    assert "Never started" not in client.get("/my/").content.decode()
    assert "Never started" not in client.get("/archive/?mine=1").content.decode()


def _stood_in_game(private):
    """A two-player stand-in game whose player to move ran out of time: a computer plays
    their seat. Returns the game, the late player and the one who stays."""
    hanna, otto = UserFactory(), UserFactory()
    game = play.create_game(
        hanna, registry.get("siam"), title="Stand-in", players=2, options={}, time_limit_days=3,
        private=private, timeout_policy=Game.TimeoutPolicy.STAND_IN,
    )  # fmt: skip
    play.join(game.pk, otto)
    game.refresh_from_db()
    late = game.seats.get(to_move=True).user
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        assert deadlines.sweep()["timed_out"] == 1
    return game, late, hanna if late == otto else otto


def test_a_seat_a_computer_took_over_ends_with_its_game(client):
    game, late, stays = _stood_in_game(private=True)
    client.force_login(late)
    assert "Stand-in" in client.get("/my/").content.decode()
    play.resign(game.pk, stays)
    assert_seats_in_sync()
    # The late player still finds the game among their finished ones.
    page = client.get("/my/").content.decode()
    finished = page[page.index("finished-games") :]
    assert "Stand-in" in finished and "take it back" not in page


def test_a_game_a_computer_finished_for_me_is_in_my_archive_and_on_my_profile(client):
    game, late, stays = _stood_in_game(private=False)
    client.force_login(late)
    profile = f"/u/{late.username}/"
    # While the computer plays on, the game is among the late player's running ones.
    assert "Stand-in" in client.get(profile).content.decode()
    play.resign(game.pk, stays)
    for url in ("/archive/?mine=1", f"/archive/?player={late.username}", profile):
        page = client.get(url).content.decode()
        assert "Stand-in" in page, url
        # It went as the late player's time: lost on time, whatever the computer made of it.
        assert "ran out of time" in page, url
    # The computer's own lists do not claim it: the seat was the player's.
    bot = game.seats.get(stood_in_for=late).user
    assert "Stand-in" not in client.get(f"/archive/?player={bot.username}").content.decode()


def test_a_seat_taken_back_is_the_players_again_and_never_the_computers(client):
    game, late, stays = _stood_in_game(private=False)
    play.reclaim_seat(game.pk, late)
    seat = game.seats.get(user=late)
    assert seat.person == late and seat.stood_in_for is None
    play.resign(game.pk, stays)
    client.force_login(late)
    page = client.get("/archive/?mine=1").content.decode()
    assert "Stand-in" in page and "ran out of time" not in page


def _started_game(count_kind, me, opponent, title, when, private=False):
    """A two-player game of ``me`` and ``opponent``, created and started at ``when``."""
    with time_machine.travel(when, tick=False):
        game = play.create_game(
            me, count_kind, title=title, players=2, options={}, time_limit_days=3, private=private
        )
        play.join(game.pk, opponent)
    return game


def _finished_games(count_kind, me, opponent, count, start=START):
    """``count`` finished games of ``me``, one a day, titles "Game 0", "Game 1", ..."""
    games = []
    for n in range(count):
        when = start + timedelta(days=n)
        game = _started_game(count_kind, me, opponent, f"Game {n}", when, private=n % 2 == 1)
        with time_machine.travel(when, tick=False):
            play.resign(game.pk, me if n % 3 else opponent)
        games.append(game)
    return games


def _titles(html: str) -> list[str]:
    return re.findall(r">(Game \d+|Running \d+)</a>", html)


def test_my_games_lists_the_running_games_my_turn_first_and_the_latest_finished(client, count_kind):
    me, opponent = UserFactory(), UserFactory()
    _finished_games(count_kind, me, opponent, 23)
    # Someone else's finished games are none of mine.
    _finished_games(count_kind, opponent, UserFactory(), 2, START + timedelta(days=40))
    running = [
        _started_game(count_kind, me, opponent, f"Running {n}", START + timedelta(days=50 + n))
        for n in range(3)
    ]
    turns = {game.title: game.seats.get(user=me).to_move for game in running}
    client.force_login(me)
    page = client.get("/my/").content.decode()
    current, finished = page.split("finished-games")
    shown = _titles(current)
    assert sorted(shown) == sorted(turns)
    # My turn first; among equals the longest waiting, then the newest.
    assert [turns[title] for title in shown] == sorted(turns.values(), reverse=True)
    # The 20 latest finished games, newest first.
    assert _titles(finished) == [f"Game {n}" for n in range(22, 2, -1)]


def test_the_archive_of_my_games_is_newest_first_and_pages(client, count_kind):
    me, opponent = UserFactory(), UserFactory()
    _finished_games(count_kind, me, opponent, 33)
    _finished_games(count_kind, opponent, UserFactory(), 2, START + timedelta(days=40))
    play.create_game(
        me, count_kind, title="Game 99", players=2, options={}, time_limit_days=3, private=False
    )
    client.force_login(me)
    first = client.get("/archive/?mine=1").content.decode()
    # Private games are mine to see here.
    assert _titles(first) == [f"Game {n}" for n in range(32, 2, -1)]
    assert "mine=1" in link(first, "next")
    second = client.get(link(first, "next")).content.decode()
    assert _titles(second) == ["Game 2", "Game 1", "Game 0"]
    assert link(second, "next") is None
    assert _titles(client.get(link(second, "prev")).content.decode()) == _titles(first)
    # The public archive: everyone's public finished games, newest first.
    everyone = client.get("/archive/").content.decode()
    mine = [f"Game {n}" for n in range(32, -1, -1) if n % 2 == 0]
    assert _titles(everyone) == ["Game 0", *mine]


def test_the_migration_fills_in_when_the_games_already_over_ended(count_kind):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0011_seat_ended_at")
    players = [UserFactory(), UserFactory(), UserFactory()]
    running = new_game(count_kind, players[:2])
    _resign(new_game(count_kind, players[1:]))
    _cancel(new_game(count_kind, players[::2]))
    waiting = play.create_game(
        players[0], count_kind, title="Waiting", players=3, options={}, time_limit_days=3,
        private=False,
    )  # fmt: skip
    play.join(waiting.pk, players[1])
    _moderator_abort(waiting)
    Seat.objects.update(ended_at=None)  # as they were before the column
    migration.fill_ended_at(apps, None)
    assert_seats_in_sync()
    assert Seat.objects.filter(ended_at__isnull=False).count() == 6
    assert not running.seats.filter(ended_at__isnull=False).exists()


def test_the_migration_gives_each_seat_its_person():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0014_seat_person")
    game, late, stays = _stood_in_game(private=False)
    Seat.objects.update(person=None)  # as they were before the column
    migration.fill_person(apps, None)
    assert {seat.person for seat in game.seats.all()} == {late, stays}


def test_games_that_ended_at_the_same_moment_are_each_on_one_page(client, count_kind):
    """A sweep of the deadlines ends many games at one moment: the pages, cut after a
    game (its end and id), still list each exactly once, the later game first."""
    me, opponent = UserFactory(), UserFactory()
    games = [
        _started_game(count_kind, me, opponent, f"Game {n}", START + timedelta(minutes=n))
        for n in range(33)
    ]
    with time_machine.travel(START + timedelta(days=5), tick=False):
        for game in games:
            play.resign(game.pk, me)
    client.force_login(me)
    expected = [f"Game {n}" for n in range(32, -1, -1)]
    for query in ("", "?mine=1"):
        first = client.get(f"/archive/{query}").content.decode()
        second = client.get(link(first, "next")).content.decode()
        assert _titles(first) + _titles(second) == expected


def test_my_games_tells_the_time_left_for_my_move_and_how_long_the_others_have_had_theirs(
    client, count_kind
):
    with time_machine.travel(START, tick=False) as clock:
        game = new_game(count_kind, [UserFactory(), UserFactory()], time_limit_days=3)
        me = mover(game)
        other = game.seats.exclude(user=me).get().user
        client.force_login(me)
        page = client.get("/my/").content.decode()
        assert "3\xa0days left" in page
        assert "hurry" not in page
        clock.shift(timedelta(days=2, hours=3))
        page = client.get("/my/").content.decode()
        assert re.search(r'<span class="hurry">21\xa0hours left</span>', page)
        client.force_login(other)
        page = client.get("/my/").content.decode()
        # no move yet: not "since the last move"
        assert "started 2\xa0days, 3\xa0hours ago" in page
        assert "since the last move" not in page and "hours left" not in page
        play.act(game.pk, me, {"type": "add", "n": 1}, None)
        play.act(game.pk, me, {"type": "end"}, None)
        clock.shift(timedelta(hours=5))
        client.force_login(me)
        assert "5\xa0hours since the last move" in client.get("/my/").content.decode()


def test_the_badge_counts_what_the_lists_show(count_kind):
    """The menu's badge (``lists.waiting_count``, SQL written once) counts exactly what
    "My games" lists as waiting: seats to move, open invitations, unanswered rematch
    offers of recent games; not a finished game's seat, an answered invitation, an
    answered offer, nor an offer older than REMATCH_DAYS."""
    from django.conf import settings

    from community import rematch
    from games import lists
    from lobby import invites
    from tests.community.helpers import finish_by_play

    me, host = UserFactory(), UserFactory()

    def orm_count() -> int:
        return (
            lists.seats_to_move(me).count()
            + len(invites.pending_for(me))
            + rematch.offers_for(me).count()
        )

    def both() -> tuple[int, int]:
        return lists.waiting_count(me), orm_count()

    assert both() == (0, 0)
    long_ago = START - timedelta(days=settings.REMATCH_DAYS + 2)
    with time_machine.travel(long_ago, tick=False):
        old = _started_game(count_kind, host, me, "Old", long_ago)
        finish_by_play(old)
        rematch.answer(old.pk, host, True)  # offered long ago: lapsed by now
    with time_machine.travel(START, tick=False):
        assert both() == (0, 0)
        running = _started_game(count_kind, host, me, "Running", START)
        waiting = 1 if running.seats.get(user=me).to_move else 0
        assert both() == (waiting, waiting)
        for title, answer in (("Asked", None), ("Declined", False)):
            game = play.create_game(
                host, count_kind, title=title, players=3, options={}, time_limit_days=3,
                private=True,
            )  # fmt: skip
            invitation = invites.invite(game.pk, host, me.username)
            if answer is not None:
                invites.answer(invitation.pk, me, accept=answer)
        assert both() == (waiting + 1, waiting + 1)
        for title, answered in (("Offered", False), ("Answered", True)):
            done = _started_game(count_kind, host, me, title, START)
            finish_by_play(done)
            rematch.answer(done.pk, host, True)
            if answered:  # declined: accepting would start the rematch, a game to move in
                rematch.answer(done.pk, me, False)
        assert both() == (waiting + 2, waiting + 2)
