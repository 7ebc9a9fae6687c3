"""Size budgets of the game page, uncompressed: a Tal page and every answer that
refreshes it at most 60 KB, a King of Siam (or Saba) page at most 42 KB (40 until the
mover's first-game page also named the move its lesson teaches, with its reason, and the
page gained the private note's place and the banks of time). At the
first position and at a late one (move 320, or the end of a shorter game), for
every seat and a spectator: the page does not grow with the game."""

import random

import pytest
from django.test import Client

from games import play, replay
from games.numbering import numbering
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

BUDGET = {"tal": 60 * 1024, "siam": 42 * 1024}
LATE = 320

CASES = [
    ("siam", 2, {}),
    ("siam", 4, {"map": "saba"}),
    ("tal", 2, {}),
    ("tal", 3, {"advanced": True, "expert": True}),
    ("tal", 4, {}),
]


def answers(game):
    """Every answer that draws the board, for every seat and a spectator: (who, what, bytes)."""
    base = f"/g/{game.pk}/"
    paths = {
        "page": (base, {}),
        "board": (base + "board", {"HX-Request": "true"}),
        "refresh": (base + "poll?v=0&c=0", {"HX-Request": "true"}),
    }
    viewers = [(f"seat {s.number}", s.user, s.number) for s in game.seats.order_by("number")]
    for who, user, seat in [*viewers, ("spectator", None, None)]:
        client = Client()
        if user is not None:
            client.force_login(user)
        # The viewer's own move numbers: without the others' secret steps.
        last = numbering(game, seat).total
        past = {"past position": (f"{base}?at={max(last - 1, 0)}", {})}
        for what, (path, headers) in {**paths, **past}.items():
            response = client.get(path, headers=headers)
            assert response.status_code == 200, (who, path)
            yield who, what, len(response.content)


def play_until(game, moves, rng):
    users = {s.number: s.user for s in game.seats.all()}
    while game.move_count < moves and game.status == "active":
        state = replay.current_state(game)
        seat = min(game.engine.active_seats(state))
        action = rng.choice(game.engine.legal_actions(state, seat))
        play.act(game.pk, users[seat], action, None)
        game.refresh_from_db()


@pytest.mark.parametrize(("kind", "players", "options"), CASES)
def test_every_page_and_refresh_stays_within_its_budget(kind, players, options):
    names = ["Anna Wassermann-Kl.", "Bartholomäus", "Cleo", "Dorothea von Rabenstein"]
    users = [UserFactory(display_name=n) for n in names[:players]]
    game = running_game(kind, users, options)
    rng = random.Random(7)
    measured = {}
    for when in ("start", "late"):
        if when == "late":
            play_until(game, LATE, rng)
            assert game.move_count >= LATE or game.status == "finished"
        for who, what, size in answers(game):
            measured[(when, who, what)] = size
    heaviest = max(measured.items(), key=lambda item: item[1])
    print(kind, players, game.move_count, heaviest)
    assert heaviest[1] <= BUDGET[kind], heaviest
