"""What a token's event stream says (``api.events.news``, the stream's own function;
served for real in test_clients_play), and the docs page."""

import json
import re
from pathlib import Path

import pytest

from api.events import Known, news
from games import play
from lobby import invites
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


def told(user, known):
    text = news(user, known).decode()
    return [
        (name, json.loads(data)) for name, data in re.findall(r"event: (\w+)\ndata: (.*)\n\n", text)
    ]


def test_the_stream_tells_turns_moves_chat_and_invitations(count_kind):
    me, other = UserFactory(), UserFactory()
    game = running_game("count", [me, other])
    mover = game.seats.get(number=0).user
    known = Known()
    first = told(me, known)
    assert first == ([("my_turn", {"game": game.pk})] if mover == me else [])
    assert told(me, known) == []  # nothing new
    play.act(game.pk, mover, {"type": "add", "n": 1}, None)
    play.act(game.pk, mover, {"type": "end"}, None)
    game.refresh_from_db()
    after = told(me, known)
    assert ("game", {"game": game.pk, "version": game.version}) in after
    assert (("my_turn", {"game": game.pk}) in after) == (mover != me)
    play.post_chat(game.pk, other, "hello")
    assert told(me, known) == [("chat", {"game": game.pk, "chat_count": 1})]
    open_game = play.create_game(
        other, count_kind, title="Come", players=2, options={}, time_limit_days=3, private=True
    )
    invitation = invites.invite(open_game.pk, other, me.username)
    assert told(me, known) == [
        ("invitation", {"id": invitation.pk, "game": open_game.pk, "by": other.username})
    ]
    play.resign(game.pk, me)
    game.refresh_from_db()
    assert told(me, known) == [("game", {"game": game.pk, "version": game.version})]


def test_an_outsider_is_told_nothing_of_others_games(count_kind):
    outsider = UserFactory()
    known = Known()
    told(outsider, known)
    game = running_game("count", [UserFactory(), UserFactory()])
    play.post_chat(game.pk, game.seats.first().user, "secret")
    assert told(outsider, known) == []


def test_the_docs_page_is_served_from_static_with_no_inline_script(client):
    page = client.get("/api/docs/").content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="/static/' in attrs and not body for attrs, body in scripts)
    assert "http" not in "".join(re.findall(r'(?:src|href)="([^"]+)"', page))  # no CDN
    assert 'data-schema="/api/v1/openapi.json"' in page
    static = Path(__file__).resolve().parents[2] / "static"
    for name in ("vendor/swagger-ui/swagger-ui-bundle.js", "vendor/swagger-ui/swagger-ui.css"):
        assert (static / name).stat().st_size > 100_000
