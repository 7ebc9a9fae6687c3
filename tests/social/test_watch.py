"""Games to watch (issue 43): running public games by interest (players one follows,
tournament finals, the strongest tables), each with a small drawing of its board built
from a spectator's view only, kept per game version; and the games of followed players."""

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import format_html

from games import extend, play, registry, spectators
from games.models import Game, Spectator
from privacy import retention
from social.models import Follow
from tests.factories import UserFactory, running_game
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db


def _titles(page: str) -> list[str]:
    return re.findall(r'<span class="watch-title">([^<]+)</span>', page)


def _game(kind, title, minutes_ago, *names):
    game = running_game(kind, [UserFactory(username=name) for name in names], title=title)
    moved = timezone.now() - timedelta(minutes=minutes_ago)
    Game.objects.filter(pk=game.pk).update(last_move_at=moved)
    return game


def _a_final(game):
    tournament = Tournament.objects.create(
        name="Cup", kind=game.kind, table_size=2, format="swiss", min_entrants=2,
        max_entrants=8, signup_closes=timezone.now(),
    )  # fmt: skip
    final = Round.objects.create(tournament=tournament, number=3, stage=Round.Stage.FINALS)
    Table.objects.create(round=final, tournament=tournament, number=1, game=game, seating=[1, 2])


def test_games_come_by_interest_followed_players_then_finals_then_strong_tables(
    client, monkeypatch
):
    _game("siam", "Latest", 1, "a1", "a2")
    strong = _game("siam", "Strong", 30, "s1", "s2")
    _a_final(_game("tal", "Final", 40, "f1", "f2"))
    _game("siam", "Friends", 50, "b1", "b2")
    monkeypatch.setattr(  # ratings as community would give them: s1 and s2 are strong
        extend,
        "_ratings",
        [lambda kind, ids: {i: 1800 if i in _ids(strong) else 1000 for i in ids}],
    )
    viewer = UserFactory(username="viewer")
    Follow.objects.create(
        follower=viewer, followed=Game.objects.get(title="Friends").seats.first().user
    )
    client.force_login(viewer)
    page = client.get("/watch/").content.decode()
    watched, followed = page.split('id="followed-h"')
    assert _titles(watched) == ["Friends", "Final", "Strong", "Latest"]
    assert "tournament final" in watched and "(you follow)" in watched
    assert _titles(followed) == ["Friends"]
    # Someone who follows nobody: finals first, then strength, then the latest move.
    client.logout()
    assert _titles(client.get("/watch/").content.decode()) == [
        "Final",
        "Strong",
        "Latest",
        "Friends",
    ]


def test_the_games_most_players_look_at_come_before_stronger_tables(client, monkeypatch):
    """Spectators: signed-in players without a seat who looked at a game lately (its
    page or its live stream), each once however often, and none who hides their visits."""
    strong = _game("siam", "Strong", 1, "s1", "s2")
    watched = _game("siam", "Watched", 30, "w1", "w2")
    monkeypatch.setattr(
        extend,
        "_ratings",
        [lambda kind, ids: {i: 1800 if i in _ids(strong) else 1000 for i in ids}],
    )
    for name in ("c1", "c2"):
        client.force_login(UserFactory(username=name))
        for _ in range(3):  # reloads: still one spectator
            assert client.get(f"/g/{watched.pk}/").status_code == 200
        client.get(f"/g/{watched.pk}/poll", headers={"HX-Request": "true"})
    hidden = UserFactory(username="hidden", show_online=False)
    client.force_login(hidden)
    client.get(f"/g/{strong.pk}/")
    client.force_login(strong.seats.first().user)  # a player is no spectator
    client.get(f"/g/{strong.pk}/")
    client.logout()
    client.get(f"/g/{strong.pk}/")  # nor is anyone not signed in: nothing is written
    assert spectators.counts([strong.pk, watched.pk]) == {watched.pk: 2}
    page = client.get("/watch/").content.decode()
    assert _titles(page) == ["Watched", "Strong"]
    assert "2 watching" in page
    # Half an hour later nobody looks any more, and the privacy sweep deletes the rows.
    later = timezone.now() + spectators.WINDOW + timedelta(seconds=1)
    assert spectators.counts([watched.pk], now=later) == {}
    assert retention.apply(now=later)["spectators' looks at games"] == 2
    assert not Spectator.objects.exists()


def _ids(game):
    return {seat.user_id for seat in game.seats.all()}


def test_every_drawing_shows_only_what_a_spectator_sees_and_is_kept_per_version(
    client, count_kind, monkeypatch
):
    """The count title's view gives each seat a secret number only that seat may see: a
    drawing that wrote out whatever view it got would show it if built for a seat."""
    seen = []

    def draw(view):
        seen.append(view["viewer"] if "viewer" in view else "no viewer key")
        return format_html("<svg class='thumbnail'><desc>{}</desc></svg>", json.dumps(view))

    monkeypatch.setattr(registry, "_kinds", dict(registry._kinds))
    registry.register(count_kind.engine, thumbnail=draw)
    game = running_game("count", [UserFactory(), UserFactory()], title="Secretive")
    state_secrets = [str(n) for n in game.engine.setup(2, game.options, game.seed).secrets]
    page = client.get("/watch/").content.decode()
    assert "Secretive" in page and "<desc>" in page
    for secret in state_secrets:
        assert secret not in page
    # Kept: a second look draws nothing and replays nothing.
    drawn = len(seen)
    with CaptureQueriesContext(connection) as queries:
        client.get("/watch/")
    assert len(seen) == drawn
    assert not [q for q in queries if "games_move" in q["sql"] or "games_snapshot" in q["sql"]]
    # A move is a new version: drawn anew.
    mover = game.seats.get(to_move=True).user
    play.act(game.pk, mover, {"type": "add", "n": 2}, None)
    client.get("/watch/")
    assert len(seen) == drawn + 1


@pytest.mark.parametrize("kind", ["siam", "tal"])
def test_each_title_draws_its_board(client, kind):
    running_game(kind, [UserFactory(), UserFactory()], title="Drawn")
    page = client.get("/watch/").content.decode()
    assert page.count('<svg class="thumbnail"') == 1
    assert "<polygon" in page
