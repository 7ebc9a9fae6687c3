"""A secret step leaves no trace for others: while the players of Tal der Könige write
their plans, one player's plan clicks change nothing the other player or a spectator
can read (the page's token and poll, the version, the live events, the history's
numbers); handing the plan in moves all of them on by one step. The planner's own
page still refuses a click made on a position it no longer shows."""

import json
import re

import pytest
from django.test import Client

from games import play, replay, signals
from games.models import Game
from tal.engine import ENGINE

from .conftest import seat_user, to_planning

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="version" value="(v[0-9a-f]+)"')
# The page token wherever a page carries it: a form's field or an hx-vals attribute.
ANY_TOKEN = re.compile(r'(?:value="|&quot;version&quot;: ?&quot;|"version": ?")(v[0-9a-f]{20})')
MOVE_LINK = re.compile(r'<a href="\?at=(\d+)" class="move-no">')
# A line's name ("move 12b"): its letter counts the lines the viewer reads, never the steps.
LINE_NAME = re.compile(r'class="move-no">([^<]*)<')


@pytest.fixture
def planning(users):
    game = play.create_game(
        users[0],
        __import__("games.registry", fromlist=["get"]).get("tal"),
        title="Secret",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    play.join(game.pk, users[1])
    game.refresh_from_db()
    to_planning(game)
    game.refresh_from_db()
    return game


@pytest.fixture
def announced():
    seen = []

    def record(sender, game_id, version, chat_count, **kwargs):
        seen.append((game_id, version, chat_count))

    signals.changed.connect(record, dispatch_uid="test-secret-steps")
    yield seen
    signals.changed.disconnect(dispatch_uid="test-secret-steps")


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def what_others_read(game, client) -> dict:
    """Everything of the game's progress a viewer's page, poll and API give them."""
    game.refresh_from_db()
    page = client.get(f"/g/{game.pk}/").content.decode()
    version = json.loads(client.get(f"/g/{game.pk}/version").content)
    poll = client.get(f"/g/{game.pk}/poll?v={version['version']}&c={game.chat_count}")
    return {
        "token": sorted(set(ANY_TOKEN.findall(page))),
        "version": version,
        "poll": poll.status_code,
        "history": MOVE_LINK.findall(page),
        "names": LINE_NAME.findall(client.get(f"/g/{game.pk}/?log=all").content.decode()),
        "poll-url": re.findall(r"game_poll|/poll\?v=\d+", page),
        "stream": re.findall(r"/live\?v=\d+&amp;c=\d+", page),
    }


def plan_clicks(game, seat: int):
    state = replay.current_state(game)
    return [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "plan"]


def test_plan_clicks_change_nothing_the_others_read(
    planning, users, announced, django_capture_on_commit_callbacks
):
    game = planning
    a, b = seat_user(game, 0), seat_user(game, 1)
    spectator = users[2]
    before = {who: what_others_read(game, client_of(who)) for who in (b, spectator)}
    version = game.version
    announced.clear()
    for _ in range(3):
        game.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            play.act(game.pk, a, plan_clicks(game, 0)[0], None)
    game.refresh_from_db()
    assert game.version == version and announced == []
    after = {who: what_others_read(game, client_of(who)) for who in (b, spectator)}
    assert after == before
    assert before[b]["token"] and before[b]["history"]  # there was something to compare
    assert before[b]["poll"] == 204


def test_handing_in_the_plan_moves_them_on_by_one(
    planning, users, announced, django_capture_on_commit_callbacks
):
    game = planning
    a = seat_user(game, 0)
    for _ in range(2):  # each overseer planned once: the plan is complete
        state = replay.current_state(game)
        unplanned = state.plans[0].index(None)
        click = next(c for c in plan_clicks(game, 0) if c["index"] == unplanned)
        play.act(game.pk, a, click, None)
        game.refresh_from_db()
    assert None not in replay.current_state(game).plans[0]
    version = game.version
    announced.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play.act(game.pk, a, {"type": "submit_plan"}, None)
    game.refresh_from_db()
    assert game.version == version + 1
    assert announced == [(game.pk, version + 1, game.chat_count)]
    poll = client_of(users[2]).get(f"/g/{game.pk}/poll?v={version}&c={game.chat_count}")
    assert poll.status_code == 200


def test_the_planners_own_stale_click_is_still_refused(planning):
    game = planning
    a = seat_user(game, 0)
    client = client_of(a)
    token = ANY_TOKEN.search(client.get(f"/g/{game.pk}/").content.decode()).group(1)
    first, second = plan_clicks(game, 0)[:2]
    play.act(game.pk, a, first, token)
    game.refresh_from_db()
    with pytest.raises(play.StaleMove):
        play.act(game.pk, a, second, token)  # drawn before the first click
    fresh = ANY_TOKEN.search(client.get(f"/g/{game.pk}/").content.decode()).group(1)
    assert fresh != token
    play.act(game.pk, a, plan_clicks(game, 0)[0], fresh)


def test_the_planners_page_shows_each_click(planning):
    game = planning
    a = seat_user(game, 0)
    client = client_of(a)
    pages = []
    for _ in range(2):
        play.act(game.pk, a, plan_clicks(game, 0)[0], None)
        pages.append(ANY_TOKEN.findall(client.get(f"/g/{game.pk}/").content.decode()))
    assert pages[0] != pages[1]  # not served from the cache of the position before


def test_the_stored_moves_still_replay(planning):
    game = planning
    a = seat_user(game, 0)
    for _ in range(3):
        play.act(game.pk, a, plan_clicks(game, 0)[0], None)
        game.refresh_from_db()
    game = Game.objects.get(pk=game.pk)
    number, count, state = replay.rebuild(game)
    assert count == game.move_count
    assert ENGINE.view(state, 0) == ENGINE.view(replay.current_state(game), 0)


def test_the_others_history_counts_on_without_gaps(planning, users):
    game = planning
    a, b = seat_user(game, 0), seat_user(game, 1)
    readers = {who: client_of(who) for who in (b, users[2])}
    last = {
        who: max(map(int, MOVE_LINK.findall(c.get(f"/g/{game.pk}/").content.decode())))
        for who, c in readers.items()
    }
    moves = json.loads(readers[b].get(f"/g/{game.pk}/version").content)["move_count"]
    for _ in range(2):
        state = replay.current_state(game)
        unplanned = state.plans[0].index(None)
        click = next(c for c in plan_clicks(game, 0) if c["index"] == unplanned)
        play.act(game.pk, a, click, None)
        game.refresh_from_db()
    play.act(game.pk, a, plan_clicks(game, 0)[0], None)  # and changes their mind once
    play.act(game.pk, a, {"type": "submit_plan"}, None)
    game.refresh_from_db()
    for who, client in readers.items():
        page = client.get(f"/g/{game.pk}/").content.decode()
        assert max(map(int, MOVE_LINK.findall(page))) == last[who] + 1
        past = client.get(f"/g/{game.pk}/?at={last[who]}").content.decode()
        assert f"after move {last[who]} of {last[who] + 1}" in past
        beyond = client.get(f"/g/{game.pk}/?at={last[who] + 2}")
        assert beyond.status_code == 404
        assert f"it has {last[who] + 1} moves" in beyond.content.decode()
    assert json.loads(readers[b].get(f"/g/{game.pk}/version").content)["move_count"] == moves + 1
    # The planner's own history shows their own clicks.
    mine = client_of(a).get(f"/g/{game.pk}/").content.decode()
    assert max(map(int, MOVE_LINK.findall(mine))) == last[b] + 4


def test_taking_back_a_plan_click_is_no_news_either(
    planning, users, announced, django_capture_on_commit_callbacks
):
    game = planning
    a, b = seat_user(game, 0), seat_user(game, 1)
    before = what_others_read(game, client_of(b))
    play.act(game.pk, a, plan_clicks(game, 0)[0], None)
    game.refresh_from_db()
    announced.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play.undo(game.pk, a, None)
    game.refresh_from_db()
    assert game.undo_count == 1 and announced == []
    assert what_others_read(game, client_of(b)) == before
