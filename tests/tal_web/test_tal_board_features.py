"""The drawn board's features, one by one: the end-of-game table, finishing a build turn
with a warning, choosing a figure or a build position, the text view, and the fixes
(names in a past plan position, one full stop after a name, a bounded history)."""

import functools
import html
import json
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from games import play, replay
from games.numbering import numbering
from tal.engine import ENGINE
from tal.layout import FIELD
from tests.factories import UserFactory, running_game
from tests.tal.tal_helpers import FULL_LARGE, position

from . import bot
from .conftest import seat_user
from .test_tal_board_views import clickable

pytestmark = pytest.mark.django_db


def render(state, viewer, names=("Anna", "Ben", "Cleo"), query=""):
    view = ENGINE.view(state, viewer)
    with translation.override("en"):
        return render_to_string(
            "tal/board.html",
            {
                "game": SimpleNamespace(id=1, version=5),
                "view": view,
                "player_names": dict(enumerate(names)),
                "request": RequestFactory().get("/g/1/" + query),
            },
        )


def finished(levels, owners, players=3, expert=False):
    state = position(players=players, phase="build", owners=owners, levels=levels, expert=expert)
    state.phase = "over"
    state.end_reason = "pharaoh"
    state.current = None
    return state


def test_end_of_game_table_shows_points_pyramids_margin_and_why():
    # Anna: a large monochrome (20) and a small layered (3); Ben: a large mixed (3)
    state = finished(
        levels={2: FULL_LARGE, 13: ["rrrr", "g"], 3: ["rgbwrgbwr", "rrrr", "r"]},
        owners={2: 0, 13: 0, 3: 1},
    )
    text = render(state, 1)
    assert "Final scoring" in text
    assert "Anna wins with 23 points, 20 points ahead of the next player." in text
    assert "The Pharaoh pyramid is finished: the game ends." in text
    table = text[text.index("<table") : text.index("</table>")]
    rows = re.findall(r"<tr(?: class=\"winner\")?><th scope=\"row\">(.*?)</tr>", table, re.S)
    assert [re.match(r"\w+", r).group(0) for r in rows] == ["Anna", "Ben", "Cleo"]
    assert "site 2 (large pyramid, monochrome): 20" in rows[0]
    assert "site 13 (small pyramid, layered): 3" in rows[0]
    assert "site 3 (large pyramid, mixed): 3" in rows[1]
    assert ">23<" in rows[0] and ">3<" in rows[1] and ">0<" in rows[2]
    assert "winner" in rows[0] and "winner" not in rows[1]


def test_a_tie_is_a_shared_win_and_says_so():
    state = finished(levels={2: FULL_LARGE, 3: FULL_LARGE}, owners={2: 0, 3: 2})
    text = render(state, None)
    shared = "Anna and Cleo share the win with 20 points each: the rule book names no tie-break."
    assert shared in text


def test_finishing_a_build_turn_warns_how_many_stones_go_to_the_pharaoh():
    state = position(
        players=2,
        phase="build",
        owners={3: 0},
        workers={0: ["3-A"]},
        supply={0: {"red": 3, "grey": 1}},
    )
    text = render(state, 0)
    ends = re.findall(
        r"<form[^>]*hx-confirm=\"([^\"]*)\"[^>]*>.*?data-act=\"([^\"]*)\"", text, re.S
    )
    assert len(ends) == 1
    confirm, action = ends[0]
    assert json.loads(html.unescape(action)) == {"type": "end_build"}
    assert "Your 4 remaining stones go onto the Pharaoh pyramid" in html.unescape(confirm)
    # building on: the colour buttons say what the pyramid can still score
    chips = clickable(text, "build-btn")
    assert {a["colour"] for a in chips} == {"red", "grey"}
    assert "&le;&thinsp;20" in text  # nothing built yet: monochrome is still possible

    # with no stones left nothing is asked
    state = position(players=2, phase="build", owners={3: 0}, workers={0: ["3-A"]})
    state.supply[0] = {}
    state.current, state.turn_idx = 0, 0
    assert "hx-confirm" not in render(state, 0)


def test_build_chips_tell_when_a_colour_spoils_monochrome():
    state = position(
        players=2,
        phase="build",
        owners={13: 0},
        workers={0: ["13-A"]},
        levels={13: ["rr..", "."]},
        supply={0: {"red": 1, "grey": 1}},
    )
    text = render(state, 0)
    chips = re.findall(r'class="build-btn c-(\w+)".*?&le;&thinsp;(\d+)', text, re.S)
    assert dict(chips) == {"red": "5", "grey": "1"}


def test_choosing_a_figure_shows_only_its_targets():
    state = position(players=2, phase="worker", round=2, current=0)
    default = clickable(render(state, 0), "tgt")
    assert default and {(a["figure"], a["index"]) for a in default} == {("worker", 0)}
    chosen = clickable(render(state, 0, query="?fig=w3"), "tgt")
    assert chosen and {(a["figure"], a["index"]) for a in chosen} == {("worker", 3)}
    legal = ENGINE.legal_actions(state, 0)
    key = functools.partial(json.dumps, sort_keys=True)
    assert sorted(map(key, chosen)) == sorted(
        key(a) for a in legal if a["type"] == "move" and a["index"] == 3
    )
    # junk in the query changes nothing
    assert clickable(render(state, 0, query="?fig=zz"), "tgt") == default


def test_targets_show_the_steps_that_remain():
    state = position(players=2, phase="worker", round=2, current=0)
    text = render(state, 0)
    # from area 16: a field of site 15 is 1 step, so 5 remain
    link = re.search(r"<a class=\"tgt\"[^>]*aria-label=\"to 15-A, 5 left\">", text)
    assert link
    assert '<use href="#n5"' in text[link.end() : link.end() + 80]


def test_the_text_view_lists_the_board_and_the_actions_as_buttons():
    state = position(players=2, phase="worker", round=2, current=0, owners={3: 1})
    text = render(state, 0, query="?text=1")
    assert 'class="valley ' not in text
    assert "The valley as text" in text and re.search(r"Site 3</strong>\s*\(Ben", text)
    assert "Area 16, next to areas 17, 19, 21" in text
    assert (
        text.count('<button class="action"')
        == len(
            [a for a in ENGINE.legal_actions(state, 0) if a["type"] != "move" or a["index"] == 0]
        )
        + 0
    )


def test_a_past_planning_position_names_who_was_still_planning(client, users):
    game = running_game("tal", users[:2], title="History")
    rng = __import__("random").Random(2)
    for _ in range(400):
        game.refresh_from_db()
        state = replay.current_state(game)
        if state.phase == "plan":
            break
        seat = sorted(ENGINE.active_seats(state))[0]
        play.act(
            game.pk,
            seat_user(game, seat),
            bot.choose(state, seat, ENGINE.legal_actions(state, seat), rng),
            None,
        )
    # a player writes a plan step, so the planning position is in their past (in their
    # own numbers: another seat's secret step would be no step for them)
    seat = sorted(ENGINE.active_seats(state))[0]
    at = numbering(game, seat).total
    play.act(game.pk, seat_user(game, seat), ENGINE.legal_actions(state, seat)[0], None)
    client.force_login(seat_user(game, seat))
    text = client.get(f"/g/{game.pk}/?at={at}").content.decode()
    assert "Position after move" in text
    turn = re.search(r'class="tal-turn">(.*?)</p>', text, re.S).group(1)
    assert turn in ("Waiting for the plans of: Anna, Ben.", "Waiting for the plans of: Ben, Anna.")


def test_one_full_stop_after_a_name_that_ends_in_one():
    state = position(players=2, phase="bid", round=1)
    state.auction_revealed = True
    state.winners = [1] + [None] * (len(state.offered) - 1)
    text = render(state, 0, names=("Anna", "Carla K."))
    assert "Sold to Carla K." in text and "Carla K.." not in text


def test_the_history_on_the_page_is_bounded_with_a_link_to_all_of_it(client, users):
    game = running_game("tal", users[:2], title="Log")
    for _ in range(40):
        game.refresh_from_db()
        state = replay.current_state(game)
        seat = sorted(ENGINE.active_seats(state))[0]
        play.act(game.pk, seat_user(game, seat), ENGINE.legal_actions(state, seat)[0], None)
    state = replay.current_state(game)
    total = len(ENGINE.view(state, 0)["log"])
    assert total > 20
    client.force_login(users[0])
    text = client.get(f"/g/{game.pk}/").content.decode()
    # the last few whole, in a box that does not scroll; all of them in one that does
    log = text[text.index('class="log-entries"') : text.index("</ul>", text.index("log-entries"))]
    assert log.count("<li>") == 10
    assert f"Show the full history ({total - 10} earlier entries)" in text
    full = client.get(f"/g/{game.pk}/?log=all").content.decode()
    log = full[full.index('class="log-entries log-all"') : full.index("</ul>", full.index("log-"))]
    assert log.count("<li>") == total
    assert "Show the full history" not in full


def test_the_finished_page_keeps_the_table_and_drops_the_generic_result(client, users):
    game = running_game("tal", users[:2], {"advanced": True}, title="End")
    rng = __import__("random").Random(4)
    for _ in range(1500):
        game.refresh_from_db()
        state = replay.current_state(game)
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        play.act(
            game.pk,
            seat_user(game, seat),
            bot.choose(state, seat, ENGINE.legal_actions(state, seat), rng),
            None,
        )
    game.refresh_from_db()
    assert game.status == "finished"
    client.force_login(users[1])
    text = client.get(f"/g/{game.pk}/").content.decode()
    assert "Final scoring" in text and 'id="result-h"' not in text
    points = ENGINE.scores(replay.current_state(game))
    best = max(points)
    assert f"with {best} points" in text
    outsider = UserFactory()
    client.force_login(outsider)
    assert "Final scoring" in client.get(f"/g/{game.pk}/").content.decode()


def test_only_positions_of_the_level_being_built_can_be_chosen():
    # level 1 of site 2 is full: position 2 of level 2 is the one to build on
    state = position(
        players=2,
        phase="build",
        owners={2: 0},
        workers={0: ["2-A"]},
        levels={2: ["rrrrrrrrr", "....", "."]},
        supply={0: {"red": 2}},
    )
    text = render(state, 0, query="?slot=2-0")
    assert text.count('href="?slot=2-0"') == 1
    assert "Build on site 2, level 2, position 1" in text
    # The "≤ n" on each colour is explained in words, not only in a tooltip (touch screens).
    assert "≤ n: the most points this pyramid can still score after this stone." in text


def test_in_the_expert_variant_every_free_position_can_be_chosen():
    state = position(
        players=3,
        phase="build",
        owners={13: 0},
        workers={0: ["13-A"]},
        levels={13: ["r...", "."]},
        supply={0: {"grey": 2}},
        expert=True,
    )
    text = render(state, 0)
    assert sorted(re.findall(r'href="\?slot=(13-\d)"', text)) == ["13-1", "13-2", "13-3"]
    # stripes: grey next to red can still make a striped small pyramid (2 points)
    chips = re.findall(r'class="build-btn c-(\w+)".*?&le;&thinsp;(\d+)', text, re.S)
    assert dict(chips) == {"grey": "2"}


def test_a_site_not_in_play_is_hatched_without_a_word_over_its_fields():
    """The word ran over the fields and the figures on them; the legend says it once."""
    state = position(players=2, phase="build", owners={}, workers={}, levels={}, supply={})
    text = render(state, 0)
    assert "site not in play" in text  # the legend
    assert "not in play</text>" not in text
    assert 'class="cover"' in text


def test_a_target_on_an_occupied_field_puts_its_number_beside_the_figure():
    # Planning, both overseers of seat 0 on site 15: each may be planned onto the other's
    # field (a swap), a target over a figure. Its number sat on the figure; it goes in a
    # badge on the field's edge, clear of any diamond or disc that field can hold.
    state = position(players=2, phase="plan", round=2, current=0, overseers={0: ["15-A", "15-B"]})
    text = render(state, 0)
    badges = {
        n: tuple(map(float, rest))
        for n, *rest in re.findall(
            # (after the large number the whole valley shows on a phone)
            r'<g id="o(\d+)"><use href="#tf"[^>]*/>(?:<text class="valley-n"[^<]*</text>)?'
            r'<circle cx="([\d.-]+)" cy="([\d.-]+)" '
            r'r="([\d.]+)"',
            text,
        )
    }
    over = re.findall(r'<a class="tgt"[^>]*><use href="#o(\d+)"', text)
    assert over
    h = FIELD / 2
    for n in over:
        cx, cy, r = badges[n]
        dx, dy = abs(cx - h), abs(cy - h)  # from the field's centre
        # outside the diamond |dx| + |dy| <= h by more than the badge's radius
        assert (dx + dy - h) / 2**0.5 >= r
        # outside a worker's disc (radius h - 3)
        assert (dx * dx + dy * dy) ** 0.5 >= (h - 3) + r
        # (nearly) within the field's width: never over a neighbour's target
        assert cx + r <= FIELD + 4
