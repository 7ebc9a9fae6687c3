"""Tal der Könige's rules versions on the site (ruling 19 of ``tal.engine``): new games
keep figures off the sites out of play, and their board offers no target there; games
started under rules version 1 go on, and replay, by the rules they were started with."""

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from games import play, registry, replay
from games.models import Game
from tal.engine import board as B

from .conftest import play_to, seat_user

pytestmark = pytest.mark.django_db

OUT_OF_PLAY_WITH_TWO = {1, 4, 5, 8, 9, 12}


def site_drawing(html, site):
    """The <g> of ``site`` in the drawn valley, nested groups included."""
    start = html.index(f'id="tal-site-{site}"')
    start = html.rindex("<g ", 0, start)
    depth = 0
    for tag in re.finditer(r"<g[ >]|</g>", html[start:]):
        depth += 1 if tag.group().startswith("<g") else -1
        if depth == 0:
            return html[start : start + tag.end()]
    raise AssertionError(f"site {site} is not closed")


def test_a_new_game_is_played_by_rules_version_2_and_the_old_one_is_still_there(tal_game):
    assert tal_game.rules_version == 2
    assert tal_game.engine.rules_version == 2
    assert registry.get("tal", 1).engine.rules_version == 1
    assert registry.get("tal", 1).board_template == registry.get("tal").board_template


def test_the_planning_board_offers_no_field_of_a_site_out_of_play(tal_game):
    state = play_to(tal_game, "plan")
    assert {n for n, s in state.sites.items() if not s.in_play} == OUT_OF_PLAY_WITH_TWO
    client = Client()
    client.force_login(seat_user(tal_game, 0))
    for fig in ("o0", "o1"):
        html = client.get(f"/g/{tal_game.pk}/?fig={fig}").content.decode()
        assert 'class="tgt"' in html  # targets are drawn for the chosen overseer ...
        for site in OUT_OF_PLAY_WITH_TWO:  # ... none on a hatched site
            drawn = site_drawing(html, site)
            assert drawn.startswith('<g class="site small out"')
            assert 'class="tgt"' not in drawn, site
        assert any('class="tgt"' in site_drawing(html, s) for s in (13, 14, 15))
        for field in (f for s in OUT_OF_PLAY_WITH_TWO for f in B.SITE_FIELDS[s]):
            assert f"&quot;to&quot;:&quot;{field}&quot;" not in html
            assert f'"to":"{field}"' not in html


def test_a_game_of_rules_version_1_goes_on_and_replays_by_its_rules(tal_game, capsys):
    Game.objects.filter(pk=tal_game.pk).update(rules_version=1)
    tal_game.refresh_from_db()
    state = play_to(tal_game, "overseer")
    seat = state.current
    move = {"type": "move", "figure": "overseer", "index": 0, "to": "1-A"}  # out of play
    assert move in tal_game.engine.legal_actions(state, seat)
    play.act(tal_game.pk, seat_user(tal_game, seat), move, None)
    tal_game.refresh_from_db()
    assert replay.current_state(tal_game).overseers[seat][0] == "1-A"
    call_command("check_replays")
    assert "0 broken" in capsys.readouterr().out
    # Replayed by the current rules, the same log would break: check_replays replays
    # every game by the rules it was started with, and would say so.
    Game.objects.filter(pk=tal_game.pk).update(rules_version=2)
    with pytest.raises(CommandError):
        call_command("check_replays")
    assert f"game {tal_game.pk} (tal v2): replay failed" in capsys.readouterr().out


def test_the_board_of_a_rules_1_game_says_what_standing_out_of_play_is_good_for(tal_game):
    """Where a game still lets figures stand on a site out of play, the legend says that
    they do nothing there; a game of the current rules has no such targets or sentence."""
    sentence = "but it does nothing there"
    state = play_to(tal_game, "overseer")
    client = Client()
    client.force_login(seat_user(tal_game, state.current))
    html = client.get(f"/g/{tal_game.pk}/?fig=o0").content.decode()
    assert 'class="tgt"' in html and sentence not in html
    Game.objects.filter(pk=tal_game.pk).update(rules_version=1)
    html = client.get(f"/g/{tal_game.pk}/?fig=o0").content.decode()
    assert 'class="tgt"' in site_drawing(html, 1)
    assert sentence in html
