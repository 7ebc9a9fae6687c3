"""Tickets on the site: posted through the form, matched at once into a started game,
withdrawn, lapsed, filled with computer players; the lobby's count."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from automatch import seating
from automatch.models import Ticket
from automatch.tasks import match_tickets
from community.models import PlayerStats, ScoredGame
from games import play
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FORM = {
    "option_map": "siam",
    "player_counts": ["2"],
    "time_limit_days": "3",
    "rated": "on",
    "lapse_days": "7",
    "computers_after_hours": "",
}


def post_ticket(client, user, kind="siam", **changes):
    client.force_login(user)
    return client.post(f"/automatch/new/{kind}", {**FORM, **changes})


@pytest.fixture
def matching_now(django_capture_on_commit_callbacks):
    """Run what a post asks after its commit (the matching task), as a worker would."""

    def post(client, user, **changes):
        with django_capture_on_commit_callbacks(execute=True):
            return post_ticket(client, user, **changes)

    return post


def test_two_tickets_that_fit_start_one_game_with_both_seated(client, matching_now):
    anna, ben = UserFactory(), UserFactory()
    assert matching_now(client, anna).status_code == 302
    assert Ticket.objects.get(user=anna).status == Ticket.Status.OPEN
    posted = matching_now(client, ben)
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.rated
    assert {seat.user for seat in game.seats.all()} == {anna, ben}
    assert set(Ticket.objects.values_list("status", "game")) == {("matched", game.pk)}
    # Matched before Ben's page was drawn: its watcher asks from the posting on, and
    # is answered with the way to the game.
    page = client.get(posted["Location"]).content.decode()
    since = posted["Location"].split("since=")[1]
    assert f"/automatch/status?t=&amp;since={since}" in page
    answer = client.get(f"/automatch/status?since={since}", headers={"HX-Request": "true"})
    assert answer["HX-Redirect"] == game.get_absolute_url()
    # Anna's page showed her open ticket: its watcher asks by the ticket.
    client.force_login(anna)
    [ticket] = Ticket.objects.filter(user=anna)
    answer = client.get(f"/automatch/status?t={ticket.pk}", headers={"HX-Request": "true"})
    assert answer["HX-Redirect"] == game.get_absolute_url()
    assert client.get("/automatch/status?t=&since=").status_code == 204


def test_tickets_that_do_not_fit_stay_apart(client, matching_now):
    players = [UserFactory() for _ in range(4)]
    matching_now(client, players[0])
    matching_now(client, players[1], option_map="saba")  # another map
    matching_now(client, players[2], time_limit_days="7")  # another pace
    matching_now(client, players[3], rated="")  # unrated
    assert not Game.objects.exists()
    assert Ticket.objects.filter(status="open").count() == 4
    answer = client.get(
        "/automatch/status?t=" + ",".join(map(str, Ticket.objects.values_list("pk", flat=True)))
    )
    assert answer.status_code == 204


def test_tickets_of_one_pace_start_a_game_with_banks_and_other_clocks_stay_apart(
    client, matching_now
):
    anna, ben, cleo, dora = (UserFactory() for _ in range(4))
    matching_now(client, anna, pace="quick")
    matching_now(client, cleo, pace="")  # a time per move: another clock
    matching_now(client, dora, pace="slow")  # another pace
    assert not Game.objects.exists()
    assert "Slow: " in client.get("/automatch/").content.decode()  # Dora's ticket
    matching_now(client, ben, pace="quick", time_limit_days="7")  # the pace decides
    game = Game.objects.get()
    assert {seat.user for seat in game.seats.all()} == {anna, ben}
    assert (game.bank_start, game.bank_increment, game.bank_cap) == (
        timedelta(hours=4),
        timedelta(hours=1),
        timedelta(hours=8),
    )
    assert Ticket.objects.filter(status="open").count() == 2


def test_ratings_keep_tickets_apart_until_a_player_in_range_comes(client, matching_now):
    strong, weak, peer = UserFactory(), UserFactory(), UserFactory()
    for user, rating in [(strong, 1600), (weak, 900), (peer, 1550)]:
        PlayerStats.objects.create(user=user, kind="siam", rating=rating)
    matching_now(client, strong, min_rating="1500")
    matching_now(client, weak)
    assert not Game.objects.exists()
    # Ranges hold both ways: not yet (the strong player is above it, the weak below).
    matching_now(client, peer, min_rating="1000", max_rating="1599")
    assert not Game.objects.exists()
    Ticket.objects.filter(user=peer).update(status="withdrawn")
    matching_now(client, peer)
    game = Game.objects.get()
    assert {s.user for s in game.seats.all()} == {strong, peer}
    assert Ticket.objects.get(user=weak).status == "open"


def test_an_unrated_table_counts_for_nobody(client, matching_now):
    anna, ben = UserFactory(), UserFactory()
    matching_now(client, anna, rated="")
    matching_now(client, ben, rated="")
    game = Game.objects.get()
    assert not game.rated
    play.resign(game.pk, anna)
    assert ScoredGame.objects.get(game=game).rated is False


def test_a_player_withdraws_their_ticket_and_nobody_else_can(client):
    anna, eve = UserFactory(), UserFactory()
    post_ticket(client, anna)
    ticket = Ticket.objects.get()
    client.force_login(eve)
    assert client.post(f"/automatch/{ticket.pk}/withdraw").status_code == 404
    assert client.get(f"/automatch/status?t={ticket.pk}").status_code == 204
    ticket.refresh_from_db()
    assert ticket.status == "open"
    client.force_login(anna)
    page = client.get("/automatch/").content.decode()
    assert "King of Siam" in page and f"/automatch/{ticket.pk}/withdraw" in page
    client.post(f"/automatch/{ticket.pk}/withdraw")
    ticket.refresh_from_db()
    assert ticket.status == "withdrawn"
    assert "You are not looking for a game." in client.get("/automatch/").content.decode()


def test_a_ticket_lapses_after_the_days_its_player_chose(client):
    anna, ben = UserFactory(), UserFactory()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        post_ticket(client, anna, lapse_days="1")
        clock.shift(timedelta(days=1, minutes=1))
        match_tickets()
        assert Ticket.objects.get(user=anna).status == "lapsed"
        post_ticket(client, ben)
        match_tickets()
    assert not Game.objects.exists()


def test_computer_players_fill_the_table_after_the_chosen_wait(client):
    anna = UserFactory()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        post_ticket(
            client,
            anna,
            player_counts=["3", "4"],
            computers_after_hours="6",
            computer_strength="random",
        )
        clock.shift(timedelta(hours=5))
        assert match_tickets() == 0
        clock.shift(timedelta(hours=1))
        assert match_tickets() == 1
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.players == 3
    assert game.computer_played  # unrated: practice
    assert [s.user.is_bot for s in game.seats.order_by("user__is_bot")] == [False, True, True]


def test_the_lobby_counts_the_players_looking_per_title(client):
    for user, game_map in [
        (UserFactory(), "siam"),
        (UserFactory(), "saba"),
        (UserFactory(), "saba"),
    ]:
        post_ticket(client, user, option_map=game_map)
    body = client.get("/").content.decode()
    assert "King of Siam: 1 player looking" in body
    assert "King of Saba: 2 players looking" in body


@pytest.mark.parametrize(
    "junk",
    [
        {},
        {**FORM, "player_counts": ["9"]},
        {**FORM, "time_limit_days": "2"},
        {**FORM, "option_map": "atlantis"},
        {**FORM, "min_rating": "1500", "max_rating": "1000"},
        {**FORM, "computers_after_hours": "5"},
        {**FORM, "min_rating": "9" * 30},
        {**FORM, "pace": "glacial"},
    ],
)
def test_a_bad_ticket_is_refused_and_changes_nothing(client, junk):
    client.force_login(UserFactory())
    assert client.post("/automatch/new/siam", junk).status_code == 400
    assert client.post("/automatch/new/nosuchgame", junk).status_code == 404
    assert not Ticket.objects.exists()


def test_a_block_keeps_two_players_apart(client, matching_now):
    from social.models import Block

    anna, ben, cleo = UserFactory(), UserFactory(), UserFactory()
    Block.objects.create(blocker=anna, blocked=ben)
    matching_now(client, anna)
    matching_now(client, ben)
    assert not Game.objects.exists()
    matching_now(client, cleo)
    game = Game.objects.get()
    assert {s.user for s in game.seats.all()} == {anna, cleo}


def test_a_ticket_claimed_meanwhile_starts_nothing():
    """The claim is a conditional UPDATE: a run that read a ticket another run has
    matched since (or its player withdrew) starts no table with it."""
    anna, ben = UserFactory(), UserFactory()
    rows = [
        Ticket.objects.create(
            user=u,
            kind="siam",
            options={"map": "siam"},
            player_counts=[2],
            time_limit_days=3,
            expires_at=timezone.now() + timedelta(days=1),
        )
        for u in (anna, ben)
    ]
    Ticket.objects.filter(pk=rows[1].pk).update(status="withdrawn")
    by_id = {t.pk: t for t in rows}
    from automatch.matching import Group

    with pytest.raises(seating._Lost):
        seating._start(Group((rows[0].pk, rows[1].pk), 2), by_id, timezone.now())
