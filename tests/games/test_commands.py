import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games import play
from games.models import Game, Move

pytestmark = pytest.mark.django_db


def test_check_replays_passes_on_sound_logs(started, capsys):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    call_command("check_replays")
    assert "1 games replayed, 0 broken" in capsys.readouterr().out


def test_check_replays_lists_a_game_whose_log_no_longer_applies(started, capsys):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    Move.objects.filter(game=game).update(action={"type": "add", "n": 5})
    with pytest.raises(CommandError):
        call_command("check_replays")
    assert f"game {game.pk} (count v1): replay failed" in capsys.readouterr().out


def test_demo_creates_accounts_and_running_games_once():
    call_command("demo", "--moves", "3")
    assert set(User.objects.values_list("username", flat=True)) == {"anna", "bert"}
    games = Game.objects.all()
    assert {g.kind for g in games} >= {"siam", "tal"}
    assert all(g.status == Game.Status.ACTIVE and g.move_count == 3 for g in games)
    call_command("demo", "--if-empty")
    assert Game.objects.count() == len(games)
    call_command("check_replays")
