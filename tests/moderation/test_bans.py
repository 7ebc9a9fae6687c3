"""A banned player cannot sign in, join, move or chat."""

import pytest

from games import play
from games.models import ChatMessage, Game, Move
from moderation import actions
from tests.factories import UserFactory

from .admin_helpers import moderator

pytestmark = pytest.mark.django_db


def test_a_banned_user_cannot_sign_in(client, alice):
    def sign_in():
        client.post("/accounts/login/", {"login": "alice", "password": "a-long-test-password"})
        return "_auth_user_id" in client.session

    assert sign_in()
    client.logout()
    actions.ban(moderator(), alice, "Harassment")
    assert not sign_in()


def test_a_banned_user_cannot_join_move_or_chat(count_kind, started):
    game, first, second = started
    open_game = play.create_game(
        second, count_kind, title="Open", players=2, options={}, time_limit_days=3, private=False
    )
    # Banned in the database while a request of theirs is under way (no
    # session check can help then): the play functions refuse on their own.
    first.is_active = False
    first.save()
    with pytest.raises(play.PlayError, match="blocked"):
        play.join(open_game.pk, first)
    with pytest.raises(play.PlayError, match="blocked"):
        play.act(game.pk, first, {"type": "add", "n": 1}, None)
    with pytest.raises(play.PlayError, match="blocked"):
        play.post_chat(game.pk, first, "hello")
    with pytest.raises(play.PlayError, match="blocked"):
        play.create_game(
            first, count_kind, title="X", players=2, options={}, time_limit_days=3, private=False
        )
    assert not Move.objects.filter(game=game).exists()
    assert not ChatMessage.objects.exists()
    assert not open_game.seats.filter(user=first).exists()


def test_a_banned_users_open_browser_is_signed_out(client, started):
    game, first, _ = started
    client.force_login(first)
    assert client.get("/my/").status_code == 200
    actions.ban(moderator(), first, "Cheating")
    response = client.post(f"/g/{game.pk}/chat", {"text": "still here?"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not ChatMessage.objects.exists()


def test_a_ban_in_a_team_game_loses_for_the_team(users):
    from tests.factories import running_game

    four = users + [UserFactory(username="dora")]
    game = running_game("siam", four, {})
    banned = game.seats.get(number=1).user
    actions.ban(moderator(), banned, "Abuse")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sorted(game.result["winners"]) == [0, 2]


def test_a_moderator_cannot_ban_a_superuser_or_other_staff_and_nobody_bans_a_computer():
    from botplay.accounts import bot_user

    staff_moderator = UserFactory(is_staff=True)
    superuser = UserFactory(is_staff=True, is_superuser=True)
    other_moderator = UserFactory(is_staff=True)
    computer = bot_user("random")
    refused = [
        (staff_moderator, superuser, "is a superuser"),
        (other_moderator, superuser, "is a superuser"),
        (staff_moderator, other_moderator, "Only a superuser can ban"),
        (superuser, computer, "is a computer player"),
        (staff_moderator, computer, "is a computer player"),
    ]
    for who, whom, why in refused:
        with pytest.raises(actions.ModerationError, match=why):
            actions.ban(who, whom, "Testing the limits")
        whom.refresh_from_db()
        assert whom.is_active
    # A superuser may ban a moderator who misbehaves; a moderator may ban a player.
    actions.ban(superuser, other_moderator, "Abused the tools")
    actions.ban(staff_moderator, UserFactory(), "Spam")
    other_moderator.refresh_from_db()
    assert not other_moderator.is_active
