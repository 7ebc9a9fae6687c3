"""The Tal der Könige board page: every phase renders, clickable parts post legal actions,
and nothing secret (other seats' bid values and plans before the reveal) reaches the HTML."""

import functools
import html
import json
import random
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from games import play, replay
from tal.engine import ENGINE
from tests.tal.tal_helpers import position

from .conftest import seat_user

pytestmark = pytest.mark.django_db

CLASSES = ("bid-btn", "tgt", "steal", "build-btn", "end", "takeover")


def page(client, game, user=None, query=""):
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    response = client.get(f"/g/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def clickable(text, cls=None):
    """The actions of the board's clickable parts, optionally by CSS class: buttons
    (data-act) and the links on the drawn board (the action in hx-vals)."""
    found = []
    for m in re.finditer(r"<button class=\"([^\"]*)\"[^>]*?data-act=\"([^\"]*)\"", text):
        if cls is None or cls in m.group(1).split():
            found.append(json.loads(html.unescape(m.group(2))))
    for m in re.finditer(r"<a class=\"([^\"]*)\"[^>]*?hx-vals='([^']*)'", text):
        if cls is None or cls in m.group(1).split():
            vals = json.loads(html.unescape(m.group(2)))
            assert set(vals) == {"action"}
            found.append(json.loads(vals["action"]))
    return found


def listed_actions(text):
    """The actions of the text view's list of buttons."""
    found = re.findall(r'<button class="action" name="action" value="([^"]*)">', text)
    return [json.loads(html.unescape(m)) for m in found]


def state_of(game):
    game.refresh_from_db()
    return replay.current_state(game)


def act(game, seat, action):
    play.act(game.pk, seat_user(game, seat), action, None)


def check_page(client, game, seat, seen):
    """Render for ``seat`` (None: anonymous); every clickable thing is a legal action."""
    state = state_of(game)
    text = page(client, game, None if seat is None else seat_user(game, seat))
    assert 'class="tal phase-' in text
    assert 'class="valley ' in text and "Pharaoh pyramid" in text
    legal = ENGINE.legal_actions(state, seat) if seat in ENGINE.active_seats(state) else []
    found = clickable(text)
    for action in found:
        assert action in legal, action
    if legal:
        # the text view lists every legal action, moves for the chosen figure
        listed = listed_actions(page(client, game, seat_user(game, seat), "?text=1"))
        assert all(a in legal for a in listed)
        figures = {(a.get("figure", "overseer"), a["index"]) for a in legal if "to" in a}
        if figures:
            first = sorted(figures, key=lambda f: (f[0] != "overseer", f[1]))[0]
            # which figure the page chose by default (the first unplanned while planning)
            chosen = {(a.get("figure", "overseer"), a["index"]) for a in listed if "to" in a}
            assert len(chosen) == 1
            fig = chosen.pop()
            assert fig in figures
            if state.phase != "plan":
                assert fig == first
            wanted = [
                a
                for a in legal
                if "to" not in a or (a.get("figure", "overseer"), a["index"]) == fig
            ]
        else:
            wanted = legal
        key = functools.partial(json.dumps, sort_keys=True)
        assert sorted(map(key, listed)) == sorted(map(key, wanted))
        assert "Board as text and list of actions" in text
    else:
        assert found == []
    for cls in CLASSES:
        for action in clickable(text, cls):
            seen.setdefault(cls, set()).add(action["type"])
    return text


def test_board_renders_in_every_phase_of_a_random_game(client, tal_game):
    rng = random.Random(7)
    seen: dict = {}
    rendered = set()
    for _ in range(400):
        state = state_of(tal_game)
        active = sorted(ENGINE.active_seats(state))
        types = frozenset(a["type"] for seat in active for a in ENGINE.legal_actions(state, seat))
        key = (state.round, state.phase, types)
        if key not in rendered or rng.random() < 0.03:
            rendered.add(key)
            for seat in (0, 1, None):
                check_page(client, tal_game, seat, seen)
        if not active:
            break
        seat = active[0]
        legal = ENGINE.legal_actions(state, seat)
        ends = [a for a in legal if a["type"].startswith("end") or a["type"] == "submit_plan"]
        moves = [a for a in legal if a not in ends]
        # mostly useful moves early in a turn, so every kind of click shows up
        a = rng.choice(moves) if moves and rng.random() < 0.6 else (ends or legal)[0]
        act(tal_game, seat, a)
    phases = {p for _r, p, _t in rendered}
    assert {"bid", "overseer", "plan", "worker", "build"} <= phases
    assert "bid" in seen["bid-btn"]
    assert {"move", "plan"} <= seen["tgt"]
    assert "build" in seen["build-btn"]
    assert {"end_bids", "end_moves", "submit_plan", "end_build"} <= seen["end"]


def render(state, viewer, names=("Anna", "Ben", "Cleo")):
    """The board template alone for a hand-made state (no game in the database)."""
    view = ENGINE.view(state, viewer)
    return render_to_string(
        "tal/board.html",
        {
            "game": SimpleNamespace(id=1, version=5),
            "view": view,
            "player_names": dict(enumerate(names)),
        },
    )


def test_steal_and_takeover_buttons_are_on_the_site():
    state = position(
        players=3,
        phase="steal",
        current=1,
        owners={3: 0},
        levels={3: ["rrgrrrrrr", "....", "."]},
        overseers={1: ["3-A", "3-B"]},
        workers={1: ["3-C", "3-D"]},
    )
    text = render(state, 1)
    steals = clickable(text, "steal")
    assert steals and all(a["type"] == "steal" and a["site"] == 3 for a in steals)
    legal = ENGINE.legal_actions(state, 1)
    assert all(a in legal for a in clickable(text))
    assert {"type": "end_steal"} in clickable(text, "end")
    # the others see the board without any buttons
    assert clickable(render(state, 0)) == []

    state.phase = "takeover"
    legal = ENGINE.legal_actions(state, 1)
    if any(a["type"] == "takeover" for a in legal):
        text = render(state, 1)
        assert {"type": "takeover", "site": 3} in clickable(text, "takeover")


def test_clicking_a_bid_value_lays_the_tile(client, tal_game):
    state = state_of(tal_game)
    seat = sorted(ENGINE.active_seats(state))[0]
    user = seat_user(tal_game, seat)
    text = page(client, tal_game, user)
    bids = clickable(text, "bid-btn")
    assert {"type": "bid", "group": 1, "rings": 4} in bids
    response = client.post(
        f"/g/{tal_game.pk}/act",
        {
            "action": json.dumps({"type": "bid", "group": 1, "rings": 4}),
            "version": tal_game.version,
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="board-area"' in body and "(4 = <strong>4</strong>, only you see this)" in body


def test_other_seats_bid_values_stay_secret_until_the_reveal(client, tal_game):
    state = state_of(tal_game)
    first = state.current
    other = 1 - first
    act(tal_game, first, {"type": "bid", "group": 1, "rings": 4})
    act(tal_game, first, {"type": "bid", "group": 1, "rings": 3})
    act(tal_game, first, {"type": "bid", "group": 2, "rings": 2})
    own = page(client, tal_game, seat_user(tal_game, first))
    assert "4 + 3 = <strong>7</strong>" in own  # the bidder sees their tiles
    secret = ("4 + 3", "= <strong>7</strong>", "rings: 4", "rings: 3", "rings: 2")
    for viewer in (other, None):
        text = page(client, tal_game, None if viewer is None else seat_user(tal_game, viewer))
        for s in secret:
            assert s not in text, (viewer, s)
        assert "2 tiles" in text  # the number of tiles is public
        assert text.count('class="tile"') == (8 if viewer is not None else 0)
    act(tal_game, first, {"type": "end_bids"})
    # now the other seat bids: its own buttons name values, but never the first seat's tiles
    text = page(client, tal_game, seat_user(tal_game, other))
    for s in ("4 + 3", "= <strong>7</strong>", "(2 = <strong>2</strong>"):
        assert s not in text
    assert text.count('class="tile"') == 8  # own tiles only; the first seat has 5 left
    act(tal_game, other, {"type": "end_bids"})
    text = page(client, tal_game, seat_user(tal_game, other))
    assert "4 + 3 = <strong>7</strong>" in text  # revealed


def play_to(game, phase, rng):
    """Play on (ends first, so it goes fast) until ``phase`` of round 2 or later."""
    for _ in range(300):
        state = state_of(game)
        if state.phase == phase and state.round >= 2:
            return state
        seat = sorted(ENGINE.active_seats(state))[0]
        legal = ENGINE.legal_actions(state, seat)
        ends = [a for a in legal if a["type"].startswith("end") or a["type"] == "submit_plan"]
        if state.phase == "overseer":
            # claim sites so later rounds have owners
            moves = [a for a in legal if a["type"] == "move" and "-" in a["to"]]
            if moves and len(state.moved) < 2:
                ends = [rng.choice(moves)]
        act(game, seat, (ends or legal)[0])
    raise AssertionError(f"no {phase} phase reached")


def strip_own(text):
    """The page without the viewer's own actions (forms, and links on the drawn board,
    with their labels) and title attributes."""
    text = re.sub(r"<form.*?</form>", "", text, flags=re.S)
    text = re.sub(r'<a class="(?:act |tgt).*?</a>', "", text, flags=re.S)
    return re.sub(r'title="[^"]*"', "", text)


def test_plans_stay_secret_until_every_plan_is_in(client, tal_game):
    rng = random.Random(3)
    state = play_to(tal_game, "plan", rng)
    planner, other = 0, 1
    occupied = {p for s in range(2) for p in state.overseers[s] + state.workers[s]}
    targets = {}
    for i in range(2):
        options = [
            a["to"]
            for a in ENGINE.legal_actions(state_of(tal_game), planner)
            if a["type"] == "plan" and a["index"] == i and "-" in a["to"]
        ]
        options = [n for n in options if n not in occupied and n not in targets.values()]
        targets[i] = options[-1]
        act(tal_game, planner, {"type": "plan", "index": i, "to": targets[i]})
    mine = page(client, tal_game, seat_user(tal_game, planner))
    assert f"&rarr; <strong>{targets[0]}</strong>" in mine
    assert 'class="plan-arrow"' in mine
    act(tal_game, planner, {"type": "submit_plan"})
    for viewer in (other, None):
        text = page(client, tal_game, None if viewer is None else seat_user(tal_game, viewer))
        assert "plan submitted" in text
        visible = strip_own(text)
        for node in targets.values():
            assert node not in visible, (viewer, node)
        assert "plan-arrow" not in visible
    # the other seat submits: every plan is revealed and carried out
    state = state_of(tal_game)
    pos = state.overseers[other]
    act(tal_game, other, {"type": "plan", "index": 0, "to": pos[0]})
    act(tal_game, other, {"type": "plan", "index": 1, "to": pos[1]})
    act(tal_game, other, {"type": "submit_plan"})
    text = page(client, tal_game, seat_user(tal_game, other))
    assert f"O1 &rarr; {targets[0]}" in text


def test_writing_plans_at_the_same_time_does_not_make_the_other_page_stale(client, tal_game):
    from games.pages import board_page

    play_to(tal_game, "plan", random.Random(5))
    tal_game.refresh_from_db()
    other = seat_user(tal_game, 1)
    token = board_page(tal_game, other).token
    planner_move = ENGINE.legal_actions(state_of(tal_game), 0)[0]
    act(tal_game, 0, planner_move)  # seat 0 writes its secret plan meanwhile
    mine = ENGINE.legal_actions(state_of(tal_game), 1)[0]
    client.force_login(other)
    response = client.post(
        f"/g/{tal_game.pk}/act",
        {"action": json.dumps(mine), "version": token},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200, response.content.decode()[:300]


@pytest.mark.parametrize("phase", ["plan", "worker"])
def test_a_game_resigned_in_mid_round_waits_for_nobody(client, tal_game, phase):
    """The site ended the game, not the rules: no "waiting for the plans", no plan
    being written, nobody to move and no final scoring; the result says who won."""
    from .conftest import play_to, to_planning

    to_planning(tal_game)
    if phase == "plan":
        planner = seat_user(tal_game, 0)
        state = replay.current_state(tal_game)
        plan = next(a for a in ENGINE.legal_actions(state, 0) if a["type"] == "plan")
        play.act(tal_game.pk, planner, plan, None)  # seat 0 has begun its plan
    else:
        play_to(tal_game, "worker")
    loser = seat_user(tal_game, 1)
    play.resign(tal_game.pk, loser)
    for number in (0, 1):
        client.force_login(seat_user(tal_game, number))
        text = client.get(f"/g/{tal_game.pk}/").content.decode()
        assert "Waiting for the plans" not in text
        assert "Your plan (secret" not in text and 'class="plan-arrow' not in text
        assert "The game is over." in text and "to move." not in text
        assert 'class="badge turn"' not in text
        assert "resigned" in text
        assert "plan submitted</span>" not in text and "planning</span>" not in text
        assert "&rarr; ?" not in text
