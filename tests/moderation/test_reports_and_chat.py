"""Players report messages and players, mute others' chat; the team game's chat rule."""

import pytest

from games import play, replay
from games.models import Game
from moderation.models import Report
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


def test_reporting_a_chat_message_lands_in_the_queue(client, started):
    game, first, second = started
    line = play.post_chat(game.pk, first, "you are an idiot")
    client.force_login(second)
    board = client.get(f"/g/{game.pk}/").content.decode()
    assert f"/g/{game.pk}/report?message={line.pk}" in board
    form = client.get(f"/g/{game.pk}/report?message={line.pk}")
    assert "you are an idiot" in form.content.decode()
    refused = client.post(f"/g/{game.pk}/report", {"message": line.pk, "reason": "  "})
    assert refused.status_code == 400 and not Report.objects.exists()
    response = client.post(
        f"/g/{game.pk}/report", {"message": line.pk, "reason": "Insult"}, follow=True
    )
    assert "Your report was received" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game, report.message) == (
        second,
        first,
        game,
        line,
    )
    assert report.quoted == "you are an idiot" and report.status == Report.Status.OPEN


def test_no_report_link_on_ones_own_lines_and_none_for_other_games(client, started, count_kind):
    game, first, second = started
    own = play.post_chat(game.pk, second, "my own line")
    client.force_login(second)
    assert f"report?message={own.pk}" not in client.get(f"/g/{game.pk}/").content.decode()
    other = running_game("count", [UserFactory(), UserFactory()])
    line = play.post_chat(other.pk, other.seats.first().user, "elsewhere")
    # The message id must belong to the game in the URL.
    assert client.get(f"/g/{game.pk}/report?message={line.pk}").status_code == 404


def test_reporting_a_player_from_the_profile(client, alice, bob):
    client.force_login(alice)
    profile = client.get("/u/bob/").content.decode()
    assert "/u/bob/report/" in profile
    response = client.post("/u/bob/report/", {"reason": "Offensive name"}, follow=True)
    assert "Your report was received" in response.content.decode()
    assert Report.objects.get().reported == bob
    assert "/u/alice/report/" not in client.get("/u/alice/").content.decode()


def test_reports_are_rate_limited(client, settings, alice, bob):
    settings.REPORTS_PER_DAY = 3
    client.force_login(alice)
    for _ in range(3):
        client.post("/u/bob/report/", {"reason": "Spam"})
    response = client.post("/u/bob/report/", {"reason": "Spam"})
    assert response.status_code == 400 and "wait a day" in response.content.decode()
    assert Report.objects.count() == 3


def test_a_muted_players_lines_are_hidden_for_the_muter_only(client, started):
    game, first, second = started
    play.post_chat(game.pk, first, "annoying line")
    client.force_login(second)
    client.post(f"/u/{first.username}/mute/", {"next": f"/g/{game.pk}/"})
    assert "annoying line" not in client.get(f"/g/{game.pk}/").content.decode()
    client.force_login(first)
    assert "annoying line" in client.get(f"/g/{game.pk}/").content.decode()
    client.force_login(second)
    client.post(f"/u/{first.username}/mute/", {"mute": "0"})
    assert "annoying line" in client.get(f"/g/{game.pk}/").content.decode()


def finish_by_engine(game):
    """Play random legal actions until the engine ends the game."""
    import random

    rng = random.Random(7)
    engine = game.engine
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = replay.current_state(game)
        seat = min(engine.active_seats(state))
        user = game.seats.get(number=seat).user
        action = rng.choice(engine.legal_actions(state, seat))
        play.act(game.pk, user, action, None)
    raise AssertionError("the game did not end")


def test_the_team_game_chat_is_closed_while_it_runs_and_opens_at_its_end(client, users):
    four = users + [UserFactory(username="dora")]
    team = running_game("siam", four, {})
    three = running_game("siam", users, {})
    player = team.seats.get(number=0).user
    with pytest.raises(play.PlayError, match="forbid"):
        play.post_chat(team.pk, player, "play your Lao card!")
    client.force_login(player)
    page = client.get(f"/g/{team.pk}/").content.decode()
    assert 'name="text"' not in page and "forbid talking" in page
    assert client.post(f"/g/{team.pk}/chat", {"text": "psst"}).status_code == 409
    play.post_chat(three.pk, three.seats.get(number=0).user, "allowed with three")

    finish_by_engine(team)
    team.refresh_from_db()
    assert team.status == Game.Status.FINISHED
    play.post_chat(team.pk, player, "good game")
    assert 'name="text"' in client.get(f"/g/{team.pk}/").content.decode()
