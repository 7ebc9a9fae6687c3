"""Rematch of a finished game and agreed cancellation of a running one."""

from datetime import timedelta

import pytest

from community import cancel, rematch
from community.models import CancelVote, PlayerStats, RatingChange, Rematch
from games import play
from games.clock import Pace
from games.models import Game
from tests.factories import UserFactory, running_game

from .helpers import finish_by_play

pytestmark = pytest.mark.django_db


def test_rematch_starts_when_every_player_accepted(client, started):
    game, first, second = started
    finish_by_play(game)
    client.force_login(second)
    assert client.post(f"/g/{game.pk}/rematch", {"answer": "yes"}).status_code == 302
    offer = Rematch.objects.get(game=game)
    assert offer.status == Rematch.Status.PENDING and offer.new_game is None
    # The other player sees it in "My games" and on the game page.
    client.force_login(first)
    assert "Rematches waiting for your answer" in client.get("/my/").content.decode()
    assert "Accept the rematch" in client.get(f"/g/{game.pk}/").content.decode()
    response = client.post(f"/g/{game.pk}/rematch", {"answer": "yes"})
    offer.refresh_from_db()
    new = offer.new_game
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert offer.status == Rematch.Status.STARTED
    assert new.status == Game.Status.ACTIVE and new.kind == game.kind
    assert new.options == game.options and new.time_limit_days == game.time_limit_days
    assert {s.user for s in new.seats.all()} == {first, second}
    assert sorted(new.seats.values_list("number", flat=True)) == [0, 1]
    assert new.seed != game.seed  # seats are drawn from the new game's own seed
    assert "The rematch has started." in client.get(f"/g/{game.pk}/").content.decode()
    assert "Rematches waiting" not in client.get("/my/").content.decode()
    # A repeated click changes nothing: still one new game.
    rematch.answer(game.pk, first, True)
    assert Game.objects.count() == 2


def test_one_refusal_ends_the_rematch(client, started):
    game, first, second = started
    finish_by_play(game)
    rematch.answer(game.pk, first, True)
    rematch.answer(game.pk, second, False)
    assert Rematch.objects.get(game=game).status == Rematch.Status.DECLINED
    with pytest.raises(play.PlayError, match="already been decided"):
        rematch.answer(game.pk, first, False)
    with pytest.raises(play.PlayError, match="already been decided"):
        rematch.answer(game.pk, second, True)
    rematch.answer(game.pk, second, False)  # the same refusal again: nothing new
    assert Game.objects.count() == 1
    client.force_login(first)
    text = client.get(f"/g/{game.pk}/").content.decode()
    assert f"{second.name} declined the rematch." in text


def test_rematch_refusals(started):
    game, first, second = started
    with pytest.raises(play.PlayError, match="finished game"):
        rematch.answer(game.pk, first, True)
    finish_by_play(game)
    with pytest.raises(play.NotAPlayer):
        rematch.answer(game.pk, UserFactory(), True)
    with pytest.raises(play.PlayError, match="Nobody has proposed"):
        rematch.answer(game.pk, first, False)
    second.is_active = False
    second.save()
    with pytest.raises(play.PlayError, match="can no longer play"):
        rematch.answer(game.pk, first, True)
    assert not Rematch.objects.exists()


def test_every_player_agrees_and_the_game_is_cancelled_unrated(client, started):
    game, first, second = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "I agree to cancel this game" in page
    client.post(f"/g/{game.pk}/cancel", {"vote": "yes"})
    assert game.seats.count() == 2 and CancelVote.objects.count() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert first.name in client.get(f"/g/{game.pk}/").content.decode().split("Agreed to cancel")[1]
    assert cancel.vote(game.pk, first, True) == "agreed"  # twice: still one vote
    assert CancelVote.objects.count() == 1
    client.force_login(second)
    client.post(f"/g/{game.pk}/cancel", {"vote": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.result["reason"]["key"] == "All players agreed to cancel the game."
    assert not RatingChange.objects.exists()
    assert PlayerStats.objects.get(user=first).rated_games == 0
    with pytest.raises(play.PlayError, match="not running"):
        cancel.vote(game.pk, first, True)


def test_a_withdrawn_vote_no_longer_counts(started):
    game, first, second = started
    assert cancel.vote(game.pk, first, True) == "agreed"
    assert cancel.vote(game.pk, first, False) == "withdrawn"
    assert cancel.vote(game.pk, first, False) == "withdrawn"  # again: nothing to undo
    assert cancel.vote(game.pk, second, True) == "agreed"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    with pytest.raises(play.NotAPlayer):
        cancel.vote(game.pk, UserFactory(), True)


def test_cancel_with_junk_answer_is_refused_and_changes_nothing(client, started):
    game, first, _ = started
    client.force_login(first)
    response = client.post(f"/g/{game.pk}/cancel", {"vote": "maybe"})
    assert response.status_code == 400
    assert not CancelVote.objects.exists()


def test_three_players_all_must_agree(count_kind):
    users = [UserFactory(), UserFactory(), UserFactory()]
    game = running_game("count", users)
    assert cancel.vote(game.pk, users[0], True) == "agreed"
    assert cancel.vote(game.pk, users[1], True) == "agreed"
    assert cancel.vote(game.pk, users[2], True) == "cancelled"


def test_a_request_to_cancel_is_said_at_the_top_of_the_other_players_page(client, started):
    game, first, second = started
    cancel.vote(game.pk, first, True)
    client.force_login(second)
    page = client.get(f"/g/{game.pk}/").content.decode()
    header = page.split('<header class="game-header">')[1].split("</header>")[0]
    assert f"{first.name} asks to cancel this game by agreement." in header
    assert 'href="#cancel-h"' in header and 'id="cancel-h"' in page  # the answer is below
    # not to the player who asked, nor once the viewer has agreed too (the game ends then)
    client.force_login(first)
    assert "asks to cancel" not in client.get(f"/g/{game.pk}/").content.decode()
    cancel.vote(game.pk, first, False)
    client.force_login(second)
    assert "asks to cancel" not in client.get(f"/g/{game.pk}/").content.decode()


def test_a_rematch_keeps_the_clock_of_the_game(count_kind):
    a, b = UserFactory(), UserFactory()
    pace = Pace(timedelta(hours=2), timedelta(minutes=10), timedelta(hours=3))
    game = play.create_game(
        a, count_kind, title="Banked", players=2, options={}, time_limit_days=3,
        private=False, pace=pace, weekends_off=True,
    )  # fmt: skip
    play.join(game.pk, b)
    finish_by_play(game)
    rematch.answer(game.pk, a, True)
    new = rematch.answer(game.pk, b, True).new_game
    assert (new.bank_start, new.bank_increment, new.bank_cap) == (
        pace.start,
        pace.increment,
        pace.cap,
    )
    assert new.weekends_off
