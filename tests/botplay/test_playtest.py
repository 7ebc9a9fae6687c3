"""Bots as testers: whole games through the web layer, for every title."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from botplay import playtest
from games.models import Game, Move

pytestmark = pytest.mark.django_db


# King of Siam itself runs through the command below.
@pytest.mark.parametrize(("title", "players"), [("saba", 3), ("tal", 2)])
def test_bot_games_through_the_web_end_and_replay(title, players):
    summary = playtest.run(1, title, players=players, strength="random")
    assert summary.server_errors == [] and summary.problems == []
    assert summary.games == summary.finished == 1
    game = Game.objects.get(pk=summary.game_ids[0])
    assert game.status == Game.Status.FINISHED and game.players == players
    assert game.options.get("map", "siam") == ("saba" if title == "saba" else "siam")
    # Every action went through the act route: one recorded move per posted action
    # (plus the moves the rules force, which nobody posts).
    assert summary.moves > 10
    assert Move.objects.filter(game=game).count() >= summary.moves


def test_the_command_plays_siam_through_the_web_and_prints_a_summary(capsys):
    call_command("playtest", "--games", "1", "--title", "siam")
    out = capsys.readouterr().out
    assert "games: 1 (1 finished)" in out and "5xx answers: 0" in out
    assert "every game ended and replays" in out
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED and game.options["map"] == "siam"
    assert game.seats.filter(user__username__startswith="playtest-").count() == 2


def test_the_command_fails_on_a_server_error(monkeypatch, capsys):
    from games import views

    def broken(request, game):
        raise RuntimeError("a bug in the board")

    # A crash in the board a player reads is a 500 the playtest must report.
    monkeypatch.setattr(views, "_board_response", broken)
    with pytest.raises(CommandError, match="server errors"):
        call_command("playtest", "--games", "1", "--title", "tal")
    assert "GET /g/" in capsys.readouterr().out
