"""Tournaments and ladders offer the named paces: their games get banks."""

from datetime import timedelta

from games.clock import named
from games.models import Game
from tests.factories import UserFactory
from tournaments import ladders
from tournaments.models import Ladder, Tournament


def test_a_ladder_at_a_pace_hands_out_games_with_banks(db, count_kind):
    ladder = Ladder.objects.create(name="Quick ladder", kind="count", table_size=2, pace="quick")
    for user in (UserFactory(), UserFactory()):
        ladders.join(ladder.pk, user, 1)
    (game,) = ladders.pair(ladder.pk)
    quick = named("quick").pace
    assert (game.bank_start, game.bank_increment, game.bank_cap) == (
        quick.start,
        quick.increment,
        quick.cap,
    )
    assert game.deadline is not None and game.status == Game.Status.ACTIVE


def test_the_tournament_form_offers_the_paces(db, client, count_kind):
    client.force_login(UserFactory())
    form = client.get("/tournaments/new/count/").content.decode()
    assert 'name="pace"' in form and "Slow: " in form
    data = {
        "name": "Paced cup", "table_size": 2, "format": "swiss", "rounds": 2,
        "every_seating": "on", "finals": 0, "time_limit_days": 3, "pace": "slow",
        "timeout_policy": "lose", "withdrawal": "forfeit", "min_entrants": 2,
        "max_entrants": 8, "signup_days": 3, "option_target": "10",
    }  # fmt: skip
    client.post("/tournaments/new/count/", data)
    tournament = Tournament.objects.get()
    assert tournament.pace == "slow"
    assert "3\xa0days, +1\xa0day" in client.get(tournament.get_absolute_url()).content.decode()
    assert named("slow").pace.cap == timedelta(hours=240)
