"""Friends and blocking (issue 34): follow a player, see their games in the lobby,
invite them with one click; a blocked player cannot invite you, join your games or
be read in your chat."""

import pytest
from django.test import Client

from games import play, registry
from games.models import Game
from lobby import invites
from lobby.models import Invitation
from social import relations
from social.models import Block, Follow
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(db):
    return UserFactory(username="ada", display_name="Ada")


@pytest.fixture
def bo(db):
    return UserFactory(username="bo", display_name="Bo")


@pytest.fixture
def cy(db):
    return UserFactory(username="cy", display_name="Cy")


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def open_game(creator, players=3, private=False):
    return play.create_game(
        creator,
        registry.get("siam"),
        title="Waiting",
        players=players,
        options={},
        time_limit_days=3,
        private=private,
    )


# -- following ----------------------------------------------------------------------------


def test_a_player_follows_another_from_their_profile_and_unfollows_again(ada, bo):
    client = signed_in(ada)
    profile = client.get("/u/bo/").content.decode()
    assert ">Follow</button>" in profile and ">Block</button>" in profile
    response = client.post("/friends/follow", {"username": "bo", "next": "/u/bo/"})
    assert response.status_code == 302 and response["Location"] == "/u/bo/"
    assert Follow.objects.filter(follower=ada, followed=bo).exists()
    profile = client.get("/u/bo/").content.decode()
    assert "You follow Bo." in profile and ">Unfollow</button>" in profile
    client.post("/friends/unfollow", {"username": "bo"})
    assert not Follow.objects.exists()


def test_nobody_sees_follow_buttons_on_their_own_profile_or_when_signed_out(ada):
    assert ">Follow</button>" not in signed_in(ada).get("/u/ada/").content.decode()
    assert ">Follow</button>" not in Client().get("/u/ada/").content.decode()


def test_following_by_name_refuses_junk_clearly_and_changes_nothing(ada):
    client = signed_in(ada)
    for name, said in [
        ("", "Type the user name of a player."),
        ("nobody-here", "There is no player with this user name."),
        ("ada", "That is you."),
        (["x" * 200], "There is no player with this user name."),
    ]:
        page = client.post("/friends/follow", {"username": name}, follow=True).content.decode()
        assert said in page
    assert not Follow.objects.exists()
    # A redirect elsewhere is not followed: back to the friends page.
    response = client.post("/friends/follow", {"username": "x", "next": "https://evil.example/"})
    assert response["Location"] == "/friends/"


def test_the_friends_page_lists_whom_one_follows_and_blocked(ada, bo, cy):
    relations.follow(ada, "bo")
    relations.block(ada, "cy")
    page = signed_in(ada).get("/friends/").content.decode()
    following = page.split('id="following-h"', 1)[1].split('id="blocked-h"', 1)[0]
    blocked = page.split('id="blocked-h"', 1)[1]
    assert ">Bo</a>" in following and ">Cy</a>" not in following
    assert ">Cy</a>" in blocked
    assert Client().get("/friends/").status_code == 302  # signed out: to the sign-in page


def test_the_lobby_lists_the_games_of_players_one_follows(ada, bo, cy):
    running = running_game("tal", [bo, cy], title="Bo plays Cy")
    waiting = open_game(bo)
    waiting.title = "Bo waits"
    waiting.save()
    hidden = running_game("siam", [cy, UserFactory()], title="Not a friend's")
    relations.follow(ada, "bo")
    lobby = signed_in(ada).get("/").content.decode()
    friends = lobby.split('id="friends-h"', 1)[1].split("</section>", 1)[0]
    assert running.title in friends and "Bo waits" in friends
    assert hidden.title not in friends
    # Nobody followed: no such section at all.
    assert 'id="friends-h"' not in signed_in(cy).get("/").content.decode()


def test_the_creator_of_an_open_game_invites_a_friend_with_one_click(ada, bo, cy):
    relations.follow(ada, "bo")
    relations.follow(ada, "cy")
    game = open_game(ada)
    client = signed_in(ada)
    page = client.get(game.get_absolute_url()).content.decode()
    assert ">Invite Bo</button>" in page and ">Invite Cy</button>" in page
    client.post(f"/g/{game.pk}/invite-player", {"username": "bo"})
    assert Invitation.objects.get(game=game).invitee == bo
    page = client.get(game.get_absolute_url()).content.decode()
    assert ">Invite Bo</button>" not in page and ">Invite Cy</button>" in page
    # Nobody else sees the buttons.
    assert ">Invite Cy</button>" not in signed_in(bo).get(game.get_absolute_url()).content.decode()


# -- blocking --------------------------------------------------------------------------------


def test_a_blocked_player_cannot_invite_the_blocker(ada, bo):
    relations.block(ada, "bo")
    game = open_game(bo)
    with pytest.raises(play.PlayError, match="Ada does not take invitations from you."):
        invites.invite(game.pk, bo, "ada")
    assert not Invitation.objects.exists()
    page = signed_in(bo).post(f"/g/{game.pk}/invite-player", {"username": "ada"}, follow=True)
    assert "Ada does not take invitations from you." in page.content.decode()
    assert not Invitation.objects.exists()


def test_blocking_declines_the_invitations_the_blocked_player_sent(ada, bo):
    game = open_game(bo)
    invites.invite(game.pk, bo, "ada")
    relations.block(ada, "bo")
    assert Invitation.objects.get().status == Invitation.Status.DECLINED
    assert "Waiting" not in signed_in(ada).get("/my/").content.decode()


def test_a_blocked_player_cannot_join_a_game_the_blocker_sits_in(ada, bo, cy):
    relations.block(ada, "bo")
    game = open_game(ada)
    with pytest.raises(play.PlayError, match="A player of this game has blocked you"):
        play.join(game.pk, bo)
    response = signed_in(bo).post(f"/g/{game.pk}/join")
    assert response.status_code == 403
    assert game.seats.count() == 1
    play.join(game.pk, cy)  # anyone else joins as before
    assert game.seats.count() == 2


def test_a_blocked_player_cannot_take_a_substitute_seat_beside_the_blocker(ada, bo, cy):
    import datetime

    import time_machine

    game = play.create_game(
        ada,
        registry.get("siam"),
        title="Subs",
        players=3,
        options={},
        time_limit_days=3,
        private=False,
        timeout_policy=Game.TimeoutPolicy.SUBSTITUTE,
    )
    dan = UserFactory(display_name="Dan")
    play.join(game.pk, cy)
    play.join(game.pk, dan)
    game.refresh_from_db()
    late = game.seats.get(to_move=True)
    if late.user == ada:  # the blocker must stay in the game
        ada, cy = cy, ada
    relations.block(ada, "bo")
    with time_machine.travel(game.deadline + datetime.timedelta(minutes=1), tick=False):
        assert play.time_out(game.pk, game.deadline) == "opened"
    with pytest.raises(play.PlayError, match="blocked you"):
        play.take_seat(game.pk, bo)


def test_the_blocker_reads_none_of_the_blocked_players_chat(ada, bo):
    game = running_game("siam", [ada, bo])
    play.post_chat(game.pk, bo, "a line from Bo")
    play.post_chat(game.pk, ada, "a line from Ada")
    client = signed_in(ada)
    assert "a line from Bo" in client.get(game.get_absolute_url()).content.decode()
    signed_in(ada).post("/friends/block", {"username": "bo"})
    page = client.get(game.get_absolute_url()).content.decode()
    assert "a line from Bo" not in page and "a line from Ada" in page
    # Nor in the poller's chat update of a new line.
    game.refresh_from_db()
    play.post_chat(game.pk, bo, "another line from Bo")
    update = client.get(
        f"/g/{game.pk}/poll?v={game.version}&c={game.chat_count}", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "another line from Bo" not in update
    # Bo still reads everything; unblocking shows Bo's lines again.
    assert "a line from Ada" in signed_in(bo).get(game.get_absolute_url()).content.decode()
    client.post("/friends/unblock", {"username": "bo"})
    assert "another line from Bo" in client.get(game.get_absolute_url()).content.decode()


def test_blocking_ends_the_follows_both_ways_and_blocks_following_again(ada, bo):
    relations.follow(ada, "bo")
    relations.follow(bo, "ada")
    relations.block(ada, "bo")
    assert not Follow.objects.exists()
    with pytest.raises(relations.Refused, match="You cannot follow this player."):
        relations.follow(bo, "ada")
    with pytest.raises(relations.Refused, match="You blocked Bo. Unblock them first."):
        relations.follow(ada, "bo")
    profile = signed_in(ada).get("/u/bo/").content.decode()
    assert ">Unblock</button>" in profile and ">Follow</button>" not in profile
    relations.unblock(ada, "bo")
    assert not Block.objects.exists()
    relations.follow(ada, "bo")


def test_an_invitation_mail_waiting_when_its_inviter_is_blocked_is_not_sent(ada, bo):
    from django.core import mail

    from notify import delivery
    from notify.models import Notification

    game = open_game(bo)
    invites.invite(game.pk, bo, "ada")  # its mail waits for the worker (after the commit)
    Block.objects.create(blocker=ada, blocked=bo)  # before the worker got to it
    delivery.drain()
    assert [m for m in mail.outbox if m.to == [ada.email]] == []
    assert Notification.objects.get(kind=Notification.Kind.INVITED).skipped == "inviter blocked"
