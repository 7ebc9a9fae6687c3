"""The end-of-game review: a finished game's page shows each player's points as the game
went, as an SVG chart and a table, with figures that a replay of the record confirms,
and each marked point opens its position in the history."""

import random
import re

import pytest
from django.utils import timezone

from games import numbering, registry, replay
from games.models import Game, Move
from review import chart
from tests.factories import UserFactory, running_game
from tests.tal.tal_helpers import bot_action

pytestmark = pytest.mark.django_db


def finished_game(kind: str, players: int):
    """A game of ``kind`` played to its end by random legal actions (the record written
    as ``play.act`` writes it: plan clicks are secret steps)."""
    game = running_game(kind, [UserFactory() for _ in range(players)])
    Game.objects.filter(pk=game.pk).update(seed=1234)  # the same game on every run
    game.refresh_from_db()
    engine, rng = game.engine, random.Random(5)
    state, rows = replay.current_state(game), []
    while engine.result(state) is None:
        seat = min(engine.active_seats(state))
        if kind == "tal":
            action = bot_action(state, seat, rng)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        secret = bool(getattr(engine, "secret", None) and engine.secret(state, seat, action))
        state = engine.apply(state, seat, action)
        rows.append(Move(game=game, number=game.move_count + len(rows) + 1, seat=seat,
                         action=action, secret=secret))  # fmt: skip
    Move.objects.bulk_create(rows)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, result=engine.result(state), finished_at=timezone.now(),
        move_count=game.move_count + len(rows), version=game.version + len(rows), deadline=None,
    )  # fmt: skip
    game.seats.update(to_move=False)
    game.refresh_from_db()
    return game


def public_views(game):
    """Every position's public view, replayed here from the record."""
    engine = game.engine
    state = replay.initial_state(game)
    views = [engine.view(state, None)]
    for seat, action in game.moves.order_by("number").values_list("seat", "action"):
        state = engine.apply(state, seat, action)
        views.append(engine.view(state, None))
    return views


def chapters_on(page: str) -> list[tuple[str, list[int]]]:
    """(link, each seat's total) of every row of the review's table."""
    table = page[page.index('<div class="review-table">') :]
    rows = re.findall(r'<th scope="row"><a href="([^"]+)">.*?</tr>', table, re.S)
    totals = [
        [int(n) for n in re.findall(r"<td><strong>(\d+)</strong>", row)]
        for row in re.findall(r'<th scope="row">.*?</tr>', table, re.S)
    ]
    return list(zip(rows, totals, strict=True))


def chart_links(page: str) -> list[str]:
    return re.findall(r'<a class="chapter[^"]*" href="([^"]+)"', page)


def review_of(client, game) -> str:
    """The game page's place for the review, and the review it fetches from there."""
    page = client.get(game.get_absolute_url()).content.decode()
    fetch = re.search(r'<section class="review" hx-get="([^"]+)" hx-trigger="revealed"', page)
    assert fetch is not None
    return client.get(fetch[1], headers={"HX-Request": "true"}).content.decode()


def opened_position(client, link) -> dict:
    response = client.get(link)
    assert response.status_code == 200
    return response.context["page"].view


def test_king_of_siam_shows_the_eight_struggles_and_who_took_what(client):
    game = finished_game("siam", 3)
    views = public_views(game)
    page = review_of(client, game)
    assert '<svg class="review-chart"' in page and '<title id="review-title">' in page
    assert "followers won after every move" in page
    rows = chapters_on(page)
    takeovers = views[-1]["takeovers"]
    assert len(takeovers) == 8 and len(rows) == 8  # the last struggle ended the game
    assert chart_links(page) == [link for link, _ in rows]  # a point opens its row's position
    for number, takeover in enumerate(takeovers, start=1):
        assert f"Power struggle {number}</a>" in page
        faction = {f["id"]: f["name"] for f in views[-1]["factions"]}.get(takeover["controller"])
        if faction:
            assert f"{faction} take control of" in page
    # the figures: each row's totals are the followers won at its position, by replay
    for link, totals in rows:
        shown = opened_position(client, link)
        assert totals == [sum(s["followers"].values()) for s in shown["seats"]]
    final = registry.get("siam").points(game.result)
    assert rows[-1][1] == final
    # who took what: the takes of all rows add up to what was won since the start
    dealt = sum(sum(s["followers"].values()) for s in views[0]["seats"])
    assert sum(int(n) for n in re.findall(r"×(\d+)", page)) == sum(final) - dealt


def test_tal_der_koenige_shows_the_points_per_round_and_each_pyramid_finished(client):
    game = finished_game("tal", 2)
    views = public_views(game)
    client.force_login(UserFactory())  # a spectator: plan clicks are not counted
    page = review_of(client, game)
    assert '<svg class="review-chart"' in page and "points after every move" in page
    rows = chapters_on(page)
    assert len(rows) == views[-1]["round"]
    for number in range(1, len(rows) + 1):
        assert f"Round {number}</a>" in page
    finished = [s for s in views[-1]["sites"] if s["finished"] and s["owner"] is not None]
    assert page.count("finishes the pyramid on site") == len(finished) > 0
    names = {s.number: s.user.name for s in game.seats.all()}
    for site in finished:  # who finished it, by name
        assert f"{names[site['owner']]} finishes the pyramid on site {site['site']}:" in page
    assert chart_links(page) == [link for link, _ in rows]
    numbers = numbering.numbering(game, None)
    assert numbers.hidden  # the record has secret steps: links are in the viewer's numbers
    for link, totals in rows:
        shown = opened_position(client, link)
        assert totals == [s["points"] for s in shown["seats"]]
        at = int(link.split("?at=")[1])
        assert totals == [s["points"] for s in views[numbers.position(at)]["seats"]]
    assert rows[-1][1] == game.result["details"]["points"]
    # The chart's axis is the viewer's numbers too: its spacing tells nothing of how many
    # plan clicks a seat made (each chapter's hit area stands at its move of the viewer's).
    hits = [float(x) for x in re.findall(r'<rect class="hit" x="([\d.]+)"', page)]
    width = chart.WIDTH - chart.LEFT - chart.RIGHT
    expected = [
        chart.LEFT + width * int(link.split("?at=")[1]) / numbers.total - 9 for link, _ in rows
    ]
    assert hits == pytest.approx(expected, abs=0.06)


def test_without_javascript_the_review_is_a_page_of_its_own(client):
    game = finished_game("siam", 2)
    page = client.get(f"/g/{game.pk}/review").content.decode()
    assert '<svg class="review-chart"' in page and "hx-get" not in page.split("<svg")[1]
    assert f'href="{game.get_absolute_url()}?at=' in page


def test_a_running_game_has_no_review(client):
    game = running_game("siam", [UserFactory() for _ in range(3)])
    assert 'class="review"' not in client.get(game.get_absolute_url()).content.decode()
    assert client.get(f"/g/{game.pk}/review").status_code == 404
