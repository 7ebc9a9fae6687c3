"""Withdrawal, timeouts, a moderator's removal, cancelling, the archive, and who may
create and enter: the rules of the road, through the service functions."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from games import play
from games.models import Game
from moderation.models import AuditEntry
from tests.factories import UserFactory
from tournaments import running
from tournaments.models import Entrant, Table, Tournament

from .helpers import make, play_to_the_end, running_games, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db):
    user = UserFactory(username="mod", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="moderate"))
    return user


def test_a_withdrawal_mid_round_forfeits_the_running_game_and_leaves_the_pairings(count_kind):
    tournament = start(make(entrants=4, rounds=2))
    [first, second] = running_games(tournament)
    play_to_the_end(second)
    leaver = first.seats.get(number=0).user
    assert running.withdraw(tournament.pk, leaver) == "withdrawn"
    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED and first.result["winners"] == [1]
    table = Table.objects.get(game=first)
    assert table.done and table.point_values() == (0, 1)
    entrant = Entrant.objects.get(tournament=tournament, user=leaver)
    assert entrant.status == Entrant.Status.WITHDRAWN and entrant.left_in_round == 1
    # The round is over, the next pairs the three still in: one game and a bye.
    assert running.advance(tournament.pk) == "round"
    round_two = Table.objects.filter(tournament=tournament, round__number=2)
    assert sorted(t.kind for t in round_two) == ["bye", "game"]
    assert all(entrant.pk not in t.seating for t in round_two)


def test_a_withdrawal_with_substitutes_hands_the_games_to_a_computer(count_kind):
    tournament = start(
        make(
            entrants=3,
            format=Tournament.Format.ROUND_ROBIN,
            group_size=3,
            every_seating=False,
            withdrawal=Tournament.Withdrawal.SUBSTITUTE,
        )
    )
    [game] = running_games(tournament)  # three players: one table a round
    leaver = game.seats.get(number=0).user
    running.withdraw(tournament.pk, leaver)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # played on
    assert game.seats.get(number=0).user.is_bot
    play_to_the_end(game)
    table = Table.objects.get(game=game)
    assert table.point_values()[0] == 0  # for the one who left, a loss whatever happened
    assert table.point_values()[1] == 1
    # Their table of a later round is played by a computer from its start.
    while running.advance(tournament.pk) == "round":
        for later in running_games(tournament):
            seated = {s.user_id for s in later.seats.all()}
            assert leaver.pk not in seated
            play_to_the_end(later)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.final_table[-1]["user"] == leaver.pk


def test_forfeit_tables_of_later_rounds_are_not_played_and_the_others_score(count_kind):
    tournament = start(
        make(entrants=3, format=Tournament.Format.ROUND_ROBIN, group_size=3, every_seating=False)
    )
    [game] = running_games(tournament)
    sitting_out = Entrant.objects.exclude(pk__in=game.tournament_table.seating).get(
        tournament=tournament
    )
    running.withdraw(tournament.pk, sitting_out.user)
    play_to_the_end(game)
    assert running.advance(tournament.pk) == "round"
    [table] = Table.objects.filter(tournament=tournament, round__number=2)
    assert table.kind == Table.Kind.FORFEIT and table.game is None
    gone = table.seating.index(sitting_out.pk)
    assert table.point_values()[gone] == 0 and sum(table.point_values()) == 1


def test_running_out_of_time_is_a_loss_even_where_the_game_is_aborted(count_kind):
    tournament = start(make(entrants=2, rounds=1, timeout_policy=Game.TimeoutPolicy.ABORT))
    [game] = running_games(tournament)
    late = game.seats.get(to_move=True).number
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    assert play.time_out(game.pk, game.deadline) == "aborted"
    table = Table.objects.get(game=game)
    assert table.point_values()[late] == 0 and table.point_values()[1 - late] == 1
    assert running.advance(tournament.pk) == "finished"


def test_a_moderator_removes_an_entrant_with_a_reason_kept_in_the_audit_trail(
    count_kind, moderator
):
    tournament = start(make(entrants=2, rounds=1))
    entrant = tournament.entrants.first()
    outsider = UserFactory()
    with pytest.raises(play.PlayError):
        running.remove(tournament.pk, entrant.pk, outsider, "spam")
    with pytest.raises(play.PlayError, match="reason"):
        running.remove(tournament.pk, entrant.pk, moderator, "  ")
    assert not AuditEntry.objects.exists()
    running.remove(tournament.pk, entrant.pk, moderator, "abusive chat")
    entry = AuditEntry.objects.get()
    assert entry.action == "remove_entrant" and entry.reason == "abusive chat"
    assert entry.target_user == entrant.user and entry.moderator == moderator
    entrant.refresh_from_db()
    assert entrant.status == Entrant.Status.REMOVED
    [game] = Game.objects.filter(tournament_table__tournament=tournament)
    assert game.status == Game.Status.FINISHED  # forfeited at once
    with pytest.raises(play.PlayError):  # twice is refused, and audited once
        running.remove(tournament.pk, entrant.pk, moderator, "again")
    assert AuditEntry.objects.count() == 1


def test_the_removal_page_is_for_moderators_only(client, count_kind, moderator):
    tournament = start(make(entrants=2, rounds=1))
    entrant = tournament.entrants.first()
    url = f"/tournaments/{tournament.pk}/remove/{entrant.pk}"
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    assert client.post(url, {"reason": "x"}).status_code == 404
    client.force_login(moderator)
    assert "Reason" in client.get(url).content.decode()
    response = client.post(url, {"reason": ""}, follow=True)
    assert "A reason is required." in response.content.decode()
    client.post(url, {"reason": "cheating"})
    entrant.refresh_from_db()
    assert entrant.status == Entrant.Status.REMOVED


def test_too_few_entrants_cancel_the_tournament(count_kind):
    tournament = start(make(entrants=1, min_entrants=2))
    assert tournament.status == Tournament.Status.CANCELLED
    assert not Game.objects.exists()


def test_a_finished_tournament_keeps_its_final_table_in_the_archive(client, count_kind):
    tournament = start(make(entrants=2, rounds=1, name="Old cup"))
    [game] = running_games(tournament)
    play_to_the_end(game)
    assert running.advance(tournament.pk) == "finished"
    tournament.refresh_from_db()
    winner = game.seats.get(number=game.result["winners"][0]).user
    assert tournament.final_table[0]["name"] == winner.name
    assert tournament.final_table[0]["points"] == "1"
    listing = client.get("/tournaments/").content.decode()
    assert "Old cup" in listing and "finished" in listing
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Final table" in page and winner.name in page
    assert running.advance(tournament.pk) is None  # nothing more to do


def test_each_step_is_taken_once(count_kind):
    tournament = make(entrants=4)
    Tournament.objects.filter(pk=tournament.pk).update(signup_closes=timezone.now())
    assert running.advance(tournament.pk) == "start"
    assert running.advance(tournament.pk) is None  # the round runs
    assert Game.objects.count() == 2
    # A worker that read the tournament before the step was taken loses the claim.
    stale = Tournament.objects.get(pk=tournament.pk)
    Tournament.objects.filter(pk=stale.pk).update(step=stale.step + 1)
    for game in running_games(tournament):
        play_to_the_end(game)
    assert Tournament.objects.filter(pk=stale.pk, step=stale.step).update(step=9) == 0


def test_only_verified_players_and_moderators_create_and_each_only_a_few(
    settings, count_kind, moderator
):
    settings.TOURNAMENTS_PER_PLAYER = 1
    unverified = UserFactory()
    unverified.emailaddress_set.update(verified=False)
    with pytest.raises(play.PlayError):
        make(creator=unverified, entrants=0)
    player = UserFactory()
    make(creator=player, entrants=0)
    with pytest.raises(play.PlayError):
        make(creator=player, entrants=0)
    make(creator=moderator, entrants=0)
    make(creator=moderator, entrants=0)  # moderators have no limit
    assert Tournament.objects.count() == 3


def test_entering_is_refused_twice_when_full_after_the_sign_up_and_for_computers(count_kind):
    tournament = make(entrants=1, max_entrants=2)
    first = Entrant.objects.get(tournament=tournament).user
    with pytest.raises(play.PlayError, match="already"):
        running.enter(tournament.pk, first)
    running.enter(tournament.pk, UserFactory())
    with pytest.raises(play.PlayError, match="full"):
        running.enter(tournament.pk, UserFactory())
    bot = UserFactory(is_bot=True)
    with pytest.raises(play.PlayError):
        running.enter(tournament.pk, bot)
    closed = make(entrants=0)
    Tournament.objects.filter(pk=closed.pk).update(signup_closes=timezone.now())
    with pytest.raises(play.PlayError, match="not open"):
        running.enter(closed.pk, UserFactory())
    assert Entrant.objects.filter(tournament=tournament).count() == 2


def test_leaving_before_the_start_is_no_withdrawal(count_kind):
    tournament = make(entrants=2)
    user = Entrant.objects.filter(tournament=tournament).first().user
    assert running.withdraw(tournament.pk, user) == "left"
    assert not Entrant.objects.filter(tournament=tournament, user=user).exists()


def test_bye_points_and_standings_after_each_round(client, count_kind):
    tournament = start(make(entrants=3, rounds=2))
    bye = Table.objects.get(tournament=tournament, kind=Table.Kind.BYE)
    assert bye.point_values() == (Fraction(1),)
    [game] = running_games(tournament)
    play_to_the_end(game)
    running.advance(tournament.pk)
    page = client.get(f"{tournament.get_absolute_url()}?after=1").content.decode()
    assert "Standings after round 1" in page and "Buchholz" in page
    assert client.get(f"{tournament.get_absolute_url()}?after=99").status_code == 200


def test_a_deleted_account_leaves_its_later_tables_forfeited(count_kind):
    tournament = start(
        make(entrants=3, format=Tournament.Format.ROUND_ROBIN, group_size=3, every_seating=False)
    )
    [game] = running_games(tournament)
    out = Entrant.objects.exclude(pk__in=game.tournament_table.seating).get(tournament=tournament)
    out.user.delete()
    play_to_the_end(game)
    assert running.advance(tournament.pk) == "round"
    [table] = Table.objects.filter(tournament=tournament, round__number=2)
    assert table.kind == Table.Kind.FORFEIT and out.pk in table.seating
    while running.advance(tournament.pk) == "round":
        for later in running_games(tournament):
            play_to_the_end(later)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert len(tournament.final_table) == 2
