"""Page weight: every Tal page and every refresh of its board stays under 64 KB, in
every phase, for the seat to move (the most buttons) and for the others. (60 KB until
the page gained the panels of slow games: requests by agreement, the premove queue,
when turn mail comes; the valley is two thirds of the heaviest page, 44 KB.)"""

import os
import random

import pytest

from games import play, replay
from tal.engine import ENGINE
from tests.factories import UserFactory

from . import bot
from .conftest import new_game, seat_user

pytestmark = pytest.mark.django_db

LIMIT = 64 * 1024


@pytest.mark.parametrize(("players", "options"), [(3, {"advanced": True, "expert": True}), (4, {})])
def test_pages_and_refreshes_stay_small_in_every_phase(client, users, players, options):
    # a long name with a full stop, as real ones can be
    users = [*users, UserFactory(username="dora", display_name="Dorothea Wassermann-Kl.")]
    game = new_game(users[:players], options)
    rng = random.Random(11)
    heaviest: dict[str, tuple[int, str]] = {}
    seen = set()
    for _ in range(2500):
        game.refresh_from_db()
        state = replay.current_state(game)
        active = sorted(ENGINE.active_seats(state))
        key = (state.phase, state.round % 3)
        if key not in seen:
            seen.add(key)
            for seat in range(players):
                client.force_login(seat_user(game, seat))
                for name, path in (
                    ("page", f"/g/{game.pk}/"),
                    ("text", f"/g/{game.pk}/?text=1"),
                    ("refresh", f"/g/{game.pk}/poll?v=0&c=0"),
                ):
                    response = client.get(path, headers={"HX-Request": "true"})
                    assert response.status_code == 200, path
                    size = len(response.content)
                    if size > heaviest.get(name, (0, ""))[0]:
                        if os.environ.get("TAL_WEIGHT_DUMP"):
                            with open(f"/tmp/heaviest-{name}.html", "wb") as out:
                                out.write(response.content)
                        heaviest[name] = (size, f"{state.phase} round {state.round} seat {seat}")
        if not active:
            break
        seat = active[0]
        action = bot.choose(state, seat, ENGINE.legal_actions(state, seat), rng)
        play.act(game.pk, seat_user(game, seat), action, None)
    print(sorted(seen), {k: (round(v[0] / 1024, 1), v[1]) for k, v in heaviest.items()})
    assert {"bid", "overseer", "plan", "worker", "build", "over"} <= {p for p, _r in seen}
    for name, (size, where) in heaviest.items():
        assert size <= LIMIT, (name, size, where)
