"""Every registered title, every GET route of one of its games: a page is drawn from the
viewer's own view of the game, never from another seat's.

The titles' own tests look for their secrets by name (Tal's bid tiles, King of Siam's
hand); this one needs no knowledge of a title, so a new one is covered from the day it is
registered: while a seat's pages are drawn, ``engine.view`` may only be asked for that
seat's view or the public one (``None``), and a stranger's only for the public one.
"""

import random
import re

import pytest
import time_machine
from django.core.cache import cache
from django.utils import timezone

from games import planning, play, premoves, registry, replay
from notes import keeping as notes
from tests.factories import UserFactory

from .test_routes import game_routes, url

pytestmark = pytest.mark.django_db


def _played(kind, players, actions=12):
    users = [UserFactory() for _ in range(players)]
    game = play.create_game(
        users[0], kind, title="Secrets", players=players, options={}, time_limit_days=3,
        private=False,
    )  # fmt: skip
    for user in users[1:]:
        play.join(game.pk, user)
    rng = random.Random(7)
    for _ in range(actions):
        game.refresh_from_db()
        state = replay.current_state(game)
        if game.engine.result(state) is not None:
            break
        seat = min(game.engine.active_seats(state))
        action = rng.choice(game.engine.legal_actions(state, seat))
        play.act(game.pk, game.seats.get(number=seat).user, action, None)
    game.refresh_from_db()
    return game


@pytest.fixture(params=["count", *sorted(k.slug for k in registry.kinds())])
def title(request, count_kind):
    return registry.get(request.param)


def test_a_page_is_drawn_from_its_viewers_own_view(client, title, monkeypatch):
    game = _played(title, max(2, title.engine.min_players))
    asked: list = []
    real_view = title.engine.view

    def view(state, viewer):
        asked.append(viewer)
        return real_view(state, viewer)

    monkeypatch.setattr(title.engine, "view", view)
    paths = []
    for route, _ in game_routes():
        base = url(route, game)
        paths += [base, f"{base}?v=0&c=0", f"{base}?at=1", f"{base}?at={game.move_count - 1}"]
        # "since your last turn", step by step (games.catchup)
        paths += [f"{base}?since=0&at=1", f"{base}?since=1&at={game.move_count - 1}"]
    # The lists that draw a game's board in small (games to watch: games.thumbnails).
    paths += ["/watch/"]
    seats = {s.number: s.user for s in game.seats.all()}
    for viewer in [*seats, None]:
        client.logout()
        if viewer is not None:
            client.force_login(seats[viewer])
        drawn = 0
        for path in paths:
            cache.clear()  # drawn now, not served from what another request drew
            asked.clear()
            response = client.get(path)
            assert response.status_code < 500, path
            assert set(asked) <= {viewer, None}, (title.slug, viewer, path, asked)
            drawn += bool(asked)
        assert drawn > 4, (title.slug, viewer)  # the board and its history really were drawn


PLANNING_TITLES = sorted(k.slug for k in registry.kinds() if premoves.supported(k.engine))
# What differs between two requests for the same page: the CSRF token and the click's id.
PER_REQUEST = re.compile(
    r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|data-request-id="|"request_id" value=")[^"]*'
)


def _waiting_planner(game):
    """A seat not to move that can plan its next turn, and the first action it is offered;
    the game is played on (first legal actions) until there is one."""
    engine = game.engine
    for _ in range(60):
        game.refresh_from_db()
        state = replay.current_state(game)
        for seat in game.seats.all():
            if seat.number in engine.active_seats(state):
                continue
            board = premoves.rehearse(engine, state, seat.number, [])
            if board.view is not None and board.view["actions"]:
                return seat.user, board.view["actions"][0]["action"]
        mover = min(engine.active_seats(state))
        action = engine.legal_actions(state, mover)[-1]
        play.act(game.pk, game.seats.get(number=mover).user, action, None)
    pytest.fail("nobody could plan ahead")


@pytest.mark.parametrize("slug", PLANNING_TITLES)
def test_a_queued_premove_shows_on_no_page_but_its_players(client, slug):
    """Every GET route, for every other seat, a stranger and an anonymous visitor: the
    same before and after a player queued an action for their next turn and wrote a
    private note."""
    title = registry.get(slug)
    with time_machine.travel(timezone.now(), tick=False):
        game = _played(title, max(3, title.engine.min_players), actions=6)
        planner, action = _waiting_planner(game)
        paths = []
        for route, _ in game_routes():
            base = url(route, game)
            paths += [base, f"{base}?v=0&c=0", f"{base}?at=1"]
        viewers = [s.user for s in game.seats.exclude(user=planner)] + [UserFactory(), None]

        def pages():
            drawn = {}
            for viewer in viewers:
                client.logout()
                if viewer is not None:
                    client.force_login(viewer)
                for path in paths:
                    cache.clear()
                    response = client.get(path)
                    body = PER_REQUEST.sub(r"\1", response.content.decode())
                    drawn[(getattr(viewer, "pk", None), path)] = (response.status_code, body)
            return drawn

        pages()  # every viewer seen once: their online dots stand from here on
        before = pages()
        planning.queue(game.pk, planner, action, None)
        notes.save(game, planner, "the-planners-own-note")
        assert pages() == before
        client.force_login(planner)
        own = client.get(f"/g/{game.pk}/").content.decode()
        assert "Queued for your next turn:" in own
        assert f'hx-get="/g/{game.pk}/note"' in client.get(f"/g/{game.pk}/plan").content.decode()
        assert "the-planners-own-note" in client.get(f"/g/{game.pk}/note").content.decode()
