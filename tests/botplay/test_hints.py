"""'Suggest a move': in a practice game the hard computer player's choice for the
viewer's seat, from what that seat may see; never where another person plays."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

import bots
from botplay import hints
from botplay.accounts import bot_user
from games import replay
from games.actions import compact_json
from games.models import Game
from tal.engine import ENGINE as TAL
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fixed_budget(monkeypatch):
    # Playouts alone, no clock: the same position gives the same suggestion.
    monkeypatch.setattr(hints, "BUDGET", bots.Budget(seconds=None, playouts=12))


@pytest.fixture
def hanna():
    return UserFactory(username="hanna", display_name="Hanna")


def _practice(title, human, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return running_game(title, [human, bot_user("random")])


def _ask(game, user, accept="application/json"):
    client = Client()
    client.force_login(user)
    return client.post(f"/g/{game.pk}/hint", headers={"Accept": accept})


@pytest.mark.parametrize("title", ["siam", "tal"])
def test_a_practice_game_suggests_one_of_the_players_legal_actions(
    title, hanna, django_capture_on_commit_callbacks
):
    game = _practice(title, hanna, django_capture_on_commit_callbacks)
    response = _ask(game, hanna)
    assert response.status_code == 200
    answer = response.json()
    state = replay.current_state(game)
    seat = game.seat_of(hanna).number
    assert answer["act"] in {compact_json(a) for a in game.engine.legal_actions(state, seat)}
    assert answer["label"]
    assert answer["reason"]  # why, from the computer's own evaluation (bots.explain)
    page = Client()
    page.force_login(hanna)
    assert "Suggest a move" in page.get(game.get_absolute_url()).content.decode()


def test_a_game_with_another_person_offers_no_suggestion(hanna):
    otto = UserFactory(username="otto")
    game = running_game("siam", [hanna, otto])
    mover = next(s.user for s in game.seats.select_related("user") if s.to_move)
    client = Client()
    client.force_login(mover)
    assert "Suggest a move" not in client.get(game.get_absolute_url()).content.decode()
    response = _ask(game, mover)
    assert response.status_code == 403
    assert "practice games" in response.json()["error"]


def test_a_computer_standing_in_for_a_person_makes_it_no_practice_game(
    hanna, django_capture_on_commit_callbacks
):
    otto = UserFactory(username="otto")
    game = running_game("siam", [hanna, otto])
    seat = game.seat_of(otto)
    seat.user, seat.stood_in_for = bot_user("greedy"), otto  # Otto ran out of time
    seat.save()
    assert _ask(game, hanna).status_code == 403


def test_no_suggestion_when_it_is_not_the_players_turn(hanna, monkeypatch):
    # The computer's move is never queued: it stays the computer's turn.
    monkeypatch.setattr("botplay.receivers.queue_turn", lambda game_id, number: None)
    for _ in range(20):
        game = running_game("siam", [hanna, bot_user("random")])
        if not game.seat_of(hanna).to_move:
            break
    else:
        pytest.skip("the human moved first in every seating tried")
    response = _ask(game, hanna)
    assert response.status_code == 409
    assert "not your turn" in response.json()["error"]


def test_an_outsider_and_a_signed_out_visitor_get_nothing(
    hanna, django_capture_on_commit_callbacks
):
    game = _practice("siam", hanna, django_capture_on_commit_callbacks)
    Game.objects.filter(pk=game.pk).update(private=True)
    assert _ask(game, UserFactory(username="eve")).status_code == 404
    signed_out = Client().post(f"/g/{game.pk}/hint", headers={"Accept": "application/json"})
    assert signed_out.status_code == 404


def test_without_the_script_the_suggestion_is_said_on_the_page(
    hanna, django_capture_on_commit_callbacks
):
    game = _practice("siam", hanna, django_capture_on_commit_callbacks)
    client = Client()
    client.force_login(hanna)
    response = client.post(f"/g/{game.pk}/hint", follow=True)
    assert "Suggested move:" in response.content.decode()


def _bids_laid_by_the_computer(human_seat: int):
    """A two-player Tal auction in which the computer has laid two tiles face down and
    the human is to bid (as in tests/bots/test_bots.py)."""
    for seed in range(50):
        state = TAL.setup(2, {}, seed)
        computer = state.current
        if computer == human_seat:
            continue
        state = TAL.apply(state, computer, {"type": "bid", "group": 1, "rings": 4})
        state = TAL.apply(state, computer, {"type": "bid", "group": 2, "rings": 0})
        return TAL.apply(state, computer, {"type": "end_bids"}), computer
    raise AssertionError("no seating with the computer first")


def _other_secrets(state, computer):
    """The same public position, the computer's hidden tiles and future draws different."""
    changed = state.clone()
    laid = [bid for group in changed.bids for bid in group if bid[0] == computer]
    laid[0][1], laid[1][1] = 2, 3
    changed.tiles[computer] = [0, 0, 1, 1, 2, 4]
    changed.rng = random.Random(999)
    return changed


def test_the_suggestion_does_not_depend_on_the_computers_secrets(
    hanna, monkeypatch, django_capture_on_commit_callbacks
):
    game = _practice("tal", hanna, django_capture_on_commit_callbacks)
    state, computer = _bids_laid_by_the_computer(game.seat_of(hanna).number)
    changed = _other_secrets(state, computer)
    assert [b[1] for g in state.bids for b in g] != [b[1] for g in changed.bids for b in g]
    monkeypatch.setattr(replay, "current_state", lambda game, **kw: state)
    first = hints.suggest(game, hanna)
    monkeypatch.setattr(replay, "current_state", lambda game, **kw: changed)
    assert hints.suggest(game, hanna) == first
    assert json.loads(first["act"])["type"] in ("bid", "end_bids")
