"""Inviting a player by user name; the invitee answers on "My games"."""

import pytest

from games import play
from games.models import Game
from lobby.models import Invitation
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(db):
    return UserFactory(username="host", display_name="Host")


@pytest.fixture
def guest(db):
    return UserFactory(username="guest", display_name="Guest")


def _game(host, kind, private=False, players=2):
    return play.create_game(
        host, kind, title="Sunday", players=players, options={}, time_limit_days=3, private=private
    )


def test_creator_invites_by_name_and_the_invitee_sees_it_on_my_games(
    client, count_kind, host, guest
):
    game = _game(host, count_kind)
    client.force_login(host)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'name="username"' in page
    response = client.post(f"/g/{game.pk}/invite-player", {"username": "GUEST"}, follow=True)
    assert "Guest is invited." in response.content.decode()
    assert Invitation.objects.get().invitee == guest
    client.force_login(guest)
    mine = client.get("/my/").content.decode()
    assert "Host invites you to “Sunday”" in mine
    assert f"/invitations/{Invitation.objects.get().pk}/accept" in mine


def test_accepting_a_private_invitation_joins_without_the_link(client, count_kind, host, guest):
    game = _game(host, count_kind, private=True)
    client.force_login(guest)
    assert client.get(game.get_absolute_url()).status_code == 404
    client.force_login(host)
    client.post(f"/g/{game.pk}/invite-player", {"username": "guest"})
    invitation = Invitation.objects.get()
    client.force_login(guest)
    response = client.post(f"/invitations/{invitation.pk}/accept")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # two players: full, so it started
    assert game.seat_of(guest) is not None
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED
    assert client.get(game.get_absolute_url()).status_code == 200


def test_declining_removes_it_and_the_creator_cannot_ask_again(client, count_kind, host, guest):
    game = _game(host, count_kind)
    invitation = play_invite(game, host, "guest")
    client.force_login(guest)
    client.post(f"/invitations/{invitation.pk}/decline")
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert "invites you" not in client.get("/my/").content.decode()
    assert game.seat_of(guest) is None
    with pytest.raises(play.PlayError, match="declined"):
        play_invite(game, host, "guest")


def play_invite(game, by, name):
    from lobby import invites

    return invites.invite(game.pk, by, name)


def test_only_the_creator_invites_and_only_existing_players(client, count_kind, host, guest):
    game = _game(host, count_kind, players=3)
    play.join(game.pk, guest)
    client.force_login(guest)
    response = client.post(f"/g/{game.pk}/invite-player", {"username": "host"}, follow=True)
    assert "Only the creator of a game can invite players." in response.content.decode()
    assert 'name="username"' not in client.get(game.get_absolute_url()).content.decode()
    with pytest.raises(play.PlayError, match="no player"):
        play_invite(game, host, "nobody-here")
    with pytest.raises(play.PlayError, match="already joined"):
        play_invite(game, host, "guest")
    with pytest.raises(play.PlayError, match="You cannot invite yourself."):
        play_invite(game, host, "HOST")
    assert not Invitation.objects.exists()


def test_only_the_invitee_can_answer(client, count_kind, host, guest):
    game = _game(host, count_kind)
    invitation = play_invite(game, host, "guest")
    other = UserFactory()
    client.force_login(other)
    response = client.post(f"/invitations/{invitation.pk}/accept", follow=True)
    assert "There is no such invitation." in response.content.decode()
    assert game.seat_of(other) is None


def test_an_invitation_to_a_game_that_filled_up_cannot_be_accepted(client, count_kind, host, guest):
    game = _game(host, count_kind)
    invitation = play_invite(game, host, "guest")
    play.join(game.pk, UserFactory())
    client.force_login(guest)
    assert "invites you" not in client.get("/my/").content.decode()
    response = client.post(f"/invitations/{invitation.pk}/accept", follow=True)
    assert "“Sunday” (Count to Ten) is not open for players any more" in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.PENDING
    assert game.seat_of(guest) is None


def test_invite_link_has_a_copy_button(client, count_kind, host):
    game = _game(host, count_kind, private=True)
    client.force_login(host)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'data-copy="#invite"' in page and 'id="invite"' in page


def test_my_games_after_only_finished_games_does_not_say_not_playing_yet(
    client, count_kind, host, guest
):
    game = _game(host, count_kind)
    play.join(game.pk, guest)
    play.resign(game.pk, host)
    client.force_login(host)
    page = client.get("/my/").content.decode()
    assert "You are not playing any game yet." not in page
    assert "You are not playing any running game now." in page


def test_finished_game_offers_the_next_game(client, count_kind, host, guest):
    game = _game(host, count_kind)
    play.join(game.pk, guest)
    client.force_login(host)
    assert 'class="next-game"' not in client.get(game.get_absolute_url()).content.decode()
    play.resign(game.pk, host)
    page = client.get(game.get_absolute_url()).content.decode()
    assert '<p class="next-game"><a class="button" href="/next/">' in page


def test_create_form_says_that_four_players_of_king_of_siam_play_in_teams(client, host):
    client.force_login(host)
    html = client.get("/new/siam/").content.decode()
    assert '<option value="4">4 (2 teams of 2)</option>' in html
    assert "With 4 players you play in 2 teams of 2: partners win or lose together." in html
    assert '<option value="3">3</option>' in html
    assert "teams" not in client.get("/new/tal/").content.decode()


def test_a_computer_player_cannot_be_invited(client, count_kind, host):
    from botplay import accounts as bot_accounts

    bot = bot_accounts.bot_user("greedy")
    game = _game(host, count_kind, players=3)
    client.force_login(host)
    response = client.post(f"/g/{game.pk}/invite-player", {"username": bot.username}, follow=True)
    assert "There is no player with this user name." in response.content.decode()
    assert not Invitation.objects.exists()


def test_a_creator_who_left_the_game_invites_nobody(client, count_kind, host, guest):
    game = play.create_game(
        host, count_kind, title="Sunday", players=4, options={}, time_limit_days=3,
        private=False, computer_players=["greedy"],
    )  # fmt: skip
    play.join(game.pk, guest)
    play.leave(game.pk, host)
    client.force_login(host)
    assert 'name="username"' not in client.get(game.get_absolute_url()).content.decode()
    response = client.post(f"/g/{game.pk}/invite-player", {"username": "guest"}, follow=True)
    assert "Only the creator of a game can invite players." in response.content.decode()
    assert not Invitation.objects.exists()


def test_an_open_game_left_to_computer_players_alone_is_closed(count_kind, host):
    game = play.create_game(
        host, count_kind, title="Bots only", players=3, options={}, time_limit_days=3,
        private=False, computer_players=["greedy"],
    )  # fmt: skip
    play.leave(game.pk, host)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED  # not left waiting in the lobby for ever


def test_joining_from_the_game_page_answers_the_invitation(client, count_kind, host, guest):
    """An invitee who joins with the game page's button, not the invitation's, finds no
    invitation left to answer, and the creator sees it accepted."""
    game = _game(host, count_kind, players=3)
    client.force_login(host)
    client.post(f"/g/{game.pk}/invite-player", {"username": "guest"})
    client.force_login(guest)
    assert "Host invites you" in client.get("/my/").content.decode()
    assert client.post(f"/g/{game.pk}/join").status_code == 302
    mine = client.get("/my/").content.decode()
    assert "Host invites you" not in mine
    assert '<span class="badge"' not in mine
    assert Invitation.objects.get().status == Invitation.Status.ACCEPTED


def test_inviting_again_says_the_invitation_waits_for_an_answer(client, count_kind, host, guest):
    game = _game(host, count_kind, players=3)
    client.force_login(host)
    client.post(f"/g/{game.pk}/invite-player", {"username": "guest"}, follow=True)
    again = client.post(f"/g/{game.pk}/invite-player", {"username": "guest"}, follow=True)
    text = again.content.decode()
    assert "Guest is invited already and has not answered yet." in text
    assert "Guest is invited. The invitation" not in text
    assert Invitation.objects.count() == 1


def test_an_invitee_who_joined_and_left_can_be_invited_again(count_kind, host, guest):
    import time_machine
    from django.core import mail

    from notify import delivery
    from tests.notify.conftest import NOON

    def invited_mails():
        with time_machine.travel(NOON, tick=False):  # outside anybody's quiet hours
            delivery.drain()
        return [m for m in mail.outbox if "invites you" in m.subject]

    game = _game(host, count_kind, players=3)
    play_invite(game, host, "guest")
    assert len(invited_mails()) == 1
    play.join(game.pk, guest)
    play.leave(game.pk, guest)
    again = play_invite(game, host, "guest")
    assert again.status == Invitation.Status.PENDING
    assert len(invited_mails()) == 2
    # Renewed before the first mail went: one mail, not two.
    play.join(game.pk, guest)
    play.leave(game.pk, guest)
    play_invite(game, host, "guest")
    play.join(game.pk, guest)
    play.leave(game.pk, guest)
    play_invite(game, host, "guest")
    assert len(invited_mails()) == 3
    # The invitation mail has no mute link: the invitee is not a player of the game yet.
    assert "/notify/mute/" not in mail.outbox[-1].body


def test_old_invitations_of_players_who_joined_are_answered_by_the_migration(
    count_kind, host, guest
):
    import importlib

    from django.apps import apps

    game = _game(host, count_kind, players=3)
    invitation = play_invite(game, host, "guest")
    play.join(game.pk, guest)
    Invitation.objects.filter(pk=invitation.pk).update(status="pending")  # as before the fix
    migration = importlib.import_module("lobby.migrations.0002_joined_invitations_accepted")
    migration.accept_joined(apps, None)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED
