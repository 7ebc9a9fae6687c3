"""Every page costs a fixed number of queries, however many games, seats and moves there are.

Each page is fetched on a small site and on one ten times larger (more games in every list,
more players, a longer game with take-backs) under the same bound.
"""

import pytest

from games import play, replay
from games.models import Game, Snapshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# The most queries each page may make (session and user included), at any size.
BOUNDS = {
    # with the open tournaments and ladders (tournaments), the games of the players
    # one follows (social) and the players looking per title (automatch), one query each
    "lobby": 17,
    "my games": 11,
    "archive": 7,
    "archive mine": 7,
    "profile": 13,  # two lists of games (running, latest finished), each with its players;
    # the records, the favourite opponents and the rating history, one query each
    "game": 14,
    "history": 13,
    "board": 11,
    "poll": 11,  # something changed: the new board (no menu: no count of my turns)
    "poll unchanged": 4,
    # Nothing cached: the position, the one before and those of the (at most three)
    # take-backs shown come from snapshots: a snapshot and the moves after it, each.
    "cold game": 24,
    "move": 15,
    # The same move from the page (htmx): the answer is the new board, drawn from the
    # state the move left (no replay, no query for it), without the menu's badge; the
    # parts beside the board read what they show in one query (games.facts: no cancel
    # vote, tournament, ladder or request here), and the take-back offer its turns.
    "move htmx": 23,
}


def _turn(game_id, user):
    play.act(game_id, user, {"type": "add", "n": 1}, None)
    play.act(game_id, user, {"type": "end"}, None)


def _site(kind, me, size):
    """``size`` games in each state: open ones (the lobby), running and finished ones with
    ``me`` and two others (all different players), a few turns played in each. Returns
    the running game ``me`` looks at, longer and with more take-backs on the larger site."""
    others = [UserFactory() for _ in range(size + 1)]
    game = None
    for n in range(size):
        players = [me, others[n], others[n + 1]]
        options = {"title": f"open {n}", "players": 3, "options": {}, "time_limit_days": 3}
        play.create_game(others[n], kind, private=False, **options)
        for status in ("active", "finished"):
            options["title"] = f"{status} {n}"
            game = play.create_game(
                me, kind, private=False, timeout_policy=Game.TimeoutPolicy.SUBSTITUTE, **options
            )
            for user in players[1:]:
                play.join(game.pk, user)
            seats = {s.number: s.user for s in game.seats.all()}
            for turn in range(2):
                _turn(game.pk, seats[turn % 3])
            if status == "finished":
                play.resign(game.pk, seats[0])
    game = Game.objects.filter(status=Game.Status.ACTIVE).order_by("-pk").first()
    seats = {s.number: s.user for s in game.seats.all()}
    turns = 3 if size < 10 else 8
    for turn in range(2, turns):
        user = seats[turn % 3]
        for _ in range(1 if size < 10 else 4):  # take-backs, shown on the page
            play.act(game.pk, user, {"type": "add", "n": 1}, None)
            play.undo(game.pk, user, None)
        _turn(game.pk, user)
    game.refresh_from_db()
    return game


@pytest.fixture(params=[3, 30], ids=["3 games", "30 games"])
def site(request, count_kind, django_capture_on_commit_callbacks):
    me = UserFactory(username="me")
    # What the moves leave for after their commit (snapshots, the state cache) is done too.
    with django_capture_on_commit_callbacks(execute=True):
        game = _site(count_kind, me, request.param)
    return me, game


def test_every_page_makes_a_fixed_number_of_queries(client, site, django_assert_max_num_queries):
    me, game = site
    client.force_login(me)
    pages = {
        "lobby": "/",
        "my games": "/my/",
        "archive": "/archive/",
        "archive mine": "/archive/?mine=1",
        "profile": f"/u/{me.username}/",
        "game": f"/g/{game.pk}/",
        "history": f"/g/{game.pk}/?at=3",
        "board": f"/g/{game.pk}/board?at=4",
        "poll": f"/g/{game.pk}/poll?v=0&c=0",
        "poll unchanged": f"/g/{game.pk}/poll?v={game.version}&c={game.chat_count}",
    }
    for name, url in pages.items():
        client.get(url)  # the session and the cache as a visitor finds them
        with django_assert_max_num_queries(BOUNDS[name], info=name):
            assert client.get(url).status_code in (200, 204), name


def test_a_cold_game_page_makes_a_fixed_number_of_queries(
    client, site, django_assert_max_num_queries
):
    # Nothing cached (a restart, or Redis down): the position comes from a snapshot.
    from django.core.cache import cache

    me, game = site
    assert Snapshot.objects.filter(game=game).exists()
    client.force_login(me)
    client.get("/")
    cache.clear()
    with django_assert_max_num_queries(BOUNDS["cold game"]):
        assert client.get(f"/g/{game.pk}/").status_code == 200


def test_a_move_makes_a_fixed_number_of_queries(
    site, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    me, game = site
    mover = next(s.user for s in game.seats.all() if s.to_move)
    replay.current_state(game)  # the state cache, as the page left it

    def act(action, bound):
        # What runs after the commit (the state cache; the mail, a worker's job in
        # production) is not part of the move's transaction.
        with django_capture_on_commit_callbacks() as after_commit:
            with django_assert_max_num_queries(bound):
                play.act(game.pk, mover, action, None)
        for callback in after_commit:
            callback()

    # A step within the turn: lock, seats, the move (in a savepoint), the game,
    # "seen", and the test's own savepoint around it all: nothing counts the log.
    act({"type": "add", "n": 1}, 9)
    # Handing the turn over also writes the seats to move and the mail outbox (in
    # a savepoint); the snapshot is written after the commit.
    act({"type": "end"}, 16)


def test_the_move_endpoint_makes_a_fixed_number_of_queries(
    client, site, django_assert_max_num_queries
):
    me, game = site
    mover = next(s.user for s in game.seats.all() if s.to_move)
    client.force_login(mover)
    client.get(f"/g/{game.pk}/")
    body = {"action": {"type": "add", "n": 1}, "version": game.version}
    with django_assert_max_num_queries(BOUNDS["move"]):
        response = client.post(f"/g/{game.pk}/act", body, content_type="application/json")
    assert response.status_code == 200, response.content


def test_a_move_from_the_page_makes_a_fixed_number_of_queries(
    client, site, django_assert_max_num_queries
):
    me, game = site
    mover = next(s.user for s in game.seats.all() if s.to_move)
    client.force_login(mover)
    page = client.get(f"/g/{game.pk}/")
    body = {
        "action": '{"type": "add", "n": 1}',
        "version": page.context["page"].token,
        "request_id": "htmx-move-1",
    }
    with django_assert_max_num_queries(BOUNDS["move htmx"]) as captured:
        response = client.post(f"/g/{game.pk}/act", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content
    assert b'id="board-area"' in response.content
    sql = [q["sql"] for q in captured.captured_queries]
    # No badge: its count of the player's games to move (games.lists) is not asked.
    assert not any("b1.to_move" in q for q in sql), sql


def test_a_game_nobody_chatted_in_asks_nothing_about_chat(client, started):
    """The game's chat count says there is no line to read: the page does not ask for
    lines; the first line said then shows."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game, first, second = started
    client.force_login(first)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/g/{game.pk}/").status_code == 200
    assert not [q for q in queries if "games_chatmessage" in q["sql"]]
    play.post_chat(game.pk, second, "Hello there")
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Hello there" in page


def test_a_finished_game_page_makes_no_more_queries_than_a_running_one(
    client, started, count_kind, settings
):
    """A game over is read as often as a running one (the archive, the profiles and the
    search link to it), and is cached as one: reloaded, its page with a rematch offered
    makes no more queries than the running game's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.PAGE_CACHE_CHECK = False  # the hits as served, not drawn again to compare
    game, me, other = started
    options = {"title": "over", "players": 2, "options": {}, "time_limit_days": 3}
    finished = play.create_game(me, count_kind, private=False, **options)
    play.join(finished.pk, other)
    _turn(finished.pk, finished.seats.get(number=0).user)
    play.resign(finished.pk, me)
    client.force_login(other)
    assert client.post(f"/g/{finished.pk}/rematch", {"answer": "yes"}).status_code == 302
    client.force_login(me)
    asked = []

    def warm(url):
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url).content.decode()
        asked[:] = [q["sql"][:100] for q in queries]
        return len(queries), page

    running, _ = warm(f"/g/{game.pk}/")
    over, page = warm(f"/g/{finished.pk}/")
    assert "Accept the rematch" in page and "Next game" in page
    assert over <= running, asked
