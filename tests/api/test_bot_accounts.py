"""Bots of players' own: a fresh account becomes one, plays through the API only, is
marked "bot" where names appear, and joins a rated game with people only when the
game's creator challenged it."""

import pytest

from api.models import BotAccount
from games import play
from lobby import invites
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot(client):
    user = UserFactory(username="robo", display_name="Robo")
    client.force_login(user)
    client.post("/settings/bot/")
    assert BotAccount.objects.filter(user=user).exists()
    return user


def test_only_an_account_that_never_played_becomes_a_bot(client, count_kind):
    player = UserFactory()
    running_game("count", [player, UserFactory()])
    client.force_login(player)
    assert "Make this a bot account" not in client.get("/settings/").content.decode()
    client.post("/settings/bot/")
    assert not BotAccount.objects.exists()


def test_a_bot_account_acts_through_the_api_only(client, bot, count_kind, token_of):
    game = play.create_game(
        UserFactory(),
        count_kind,
        title="T",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    refused = client.post(f"/g/{game.pk}/join")  # its person's session, on the page
    assert refused.status_code == 403 and "through the API" in refused.content.decode()
    assert not game.seats.filter(user=bot).exists()
    # A rated game with a person: only the creator's challenge lets it in.
    api = client.post(
        f"/api/v1/games/{game.pk}/join", {}, "application/json", headers=token_of(bot)
    )
    assert api.status_code == 403 and "challenges" in api.json()["message"]
    invitation = invites.invite(game.pk, game.created_by, "robo")
    listed = client.get("/api/v1/challenges", headers=token_of(bot)).json()
    assert [c["id"] for c in listed] == [invitation.pk]
    accepted = client.post(f"/api/v1/challenges/{invitation.pk}/accept", headers=token_of(bot))
    assert accepted.json()["status"] == "accepted"
    assert game.seats.filter(user=bot).exists()


def test_a_bot_may_join_a_game_of_bots_unasked(client, bot, count_kind, token_of):
    other = UserFactory()
    BotAccount.objects.create(user=other)
    game = play.create_game(
        other, count_kind, title="T", players=2, options={}, time_limit_days=3, private=False
    )
    joined = client.post(
        f"/api/v1/games/{game.pk}/join", {}, "application/json", headers=token_of(bot)
    )
    assert joined.status_code == 200


def test_a_declined_challenge_seats_nobody(client, bot, count_kind, token_of):
    game = play.create_game(
        UserFactory(),
        count_kind,
        title="T",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    invitation = invites.invite(game.pk, game.created_by, "robo")
    client.post(f"/api/v1/challenges/{invitation.pk}/decline", headers=token_of(bot))
    assert not game.seats.filter(user=bot).exists()


def test_a_bot_is_marked_where_names_appear(client, bot, count_kind, token_of):
    person = UserFactory(username="pers", display_name="Pers")
    game = play.create_game(
        person, count_kind, title="T", players=2, options={}, time_limit_days=3, private=False
    )
    invitation = invites.invite(game.pk, person, "robo")
    invites.answer(invitation.pk, bot, True)
    client.force_login(person)
    for path in (f"/g/{game.pk}/", "/my/"):
        page = client.get(path).content.decode()
        assert 'class="computer-badge">bot<' in page, path
    seats = client.get(f"/api/v1/games/{game.pk}", headers=token_of(person)).json()["seats"]
    assert {s["username"]: s["bot"] for s in seats} == {"pers": False, "robo": True}


def test_a_listed_bot_can_be_found(client, bot, token_of):
    assert client.get("/api/v1/bots", headers=token_of(bot)).json() == []
    client.post("/settings/bot/listed", {"listed": "1"})
    found = client.get("/api/v1/bots", headers=token_of(UserFactory())).json()
    assert found == [{"username": "robo", "name": "Robo"}]


def test_a_listed_bot_is_offered_by_the_create_form_and_challenged_from_it(client, bot, count_kind):
    person = UserFactory()
    client.force_login(person)
    assert "robo" not in client.get("/new/count/").content.decode()  # not listed yet
    BotAccount.objects.filter(user=bot).update(listed=True)
    form = client.get("/new/count/").content.decode()
    assert 'value="robo"' in form and "Robo (bot)" in form
    fields = {
        "title": "Against the bot",
        "players": 2,
        "time_limit_days": 3,
        "timeout_policy": "lose",
        "pause_days": 0,
        "option_target": "10",
        "challenge": "robo",
    }
    client.post("/new/count/", fields)
    [invitation] = invites.pending_for(bot)
    assert invitation.invited_by == person and invitation.game.title == "Against the bot"
