"""Defects found in review, each pinned by a test."""

import pytest

from games import play, replay
from games.models import Game
from games.pages import board_page
from tests.moderation.admin_helpers import moderator, run_action

from .conftest import post_action

pytestmark = pytest.mark.django_db


def test_take_back_button_appears_after_an_action_that_can_be_taken_back(client, started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    game.refresh_from_db()
    assert board_page(game, first).can_undo
    client.force_login(first)
    assert "Take back</button>" in client.get(f"/g/{game.pk}/").content.decode()


def test_engine_refusals_are_translated(client):
    from tests.factories import UserFactory, running_game

    game = running_game("siam", [UserFactory(language="de"), UserFactory(language="de")])
    mover = game.seats.get(to_move=True).user
    client.force_login(mover)
    response = client.post(
        f"/g/{game.pk}/act",
        {"action": '{"type":"play","card":"joker"}'},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert "Diese Karte gibt es nicht." in response.content.decode()


def test_a_game_read_before_a_take_back_still_replays_correctly(started):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    stale = Game.objects.get(pk=game.pk)
    replay.current_state(stale)
    play.undo(game.pk, first, None)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    # `stale` still has the old undo_count, so it finds the old cache entry.
    assert replay.current_state(stale).total == 1


def test_finished_game_board_shows_nobody_to_move(client, started):
    game, first, _ = started
    play.resign(game.pk, first)
    game.refresh_from_db()
    page = board_page(game, first)
    assert page.view["active_seats"] == [] and page.view["actions"] == []


def test_a_stale_page_click_is_refused_but_an_unchanged_view_is_not(client, started):
    game, first, second = started
    client.force_login(first)
    token = board_page(game, first).token
    assert post_action(client, game, {"type": "add", "n": 1}, token).status_code == 200
    # The same page clicked again: what the player saw has changed.
    assert post_action(client, game, {"type": "end"}, token).status_code == 409
    game.refresh_from_db()
    fresh = board_page(game, first).token
    game.version += 5  # changes nobody can see do not make the page stale
    game.save()
    assert post_action(client, game, {"type": "end"}, fresh).status_code == 200


def test_admin_abort_stops_the_game_for_open_pages(client, started, count_kind):
    game, first, _ = started
    version = game.version
    client.force_login(moderator())
    run_action(client, "/admin/games/game/", "abort_game", [game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.version == version + 1
    assert not game.seats.filter(to_move=True).exists()


def test_the_last_seat_in_force_is_the_one_the_orm_finds(started):
    from games.pages import _last_seat

    game, first, second = started

    def orm():
        moves = game.moves.filter(undone=False).order_by("-number")
        return moves.values_list("seat", flat=True).first()

    assert _last_seat(game) is None is orm()
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    play.act(game.pk, second, {"type": "add", "n": 1}, None)
    assert _last_seat(game) == 1 == orm()
    game.refresh_from_db()
    play.undo(game.pk, second, None)  # the taken-back row no longer counts
    assert _last_seat(game) == 0 == orm()
    game.refresh_from_db()
    assert not board_page(game, second).can_undo


def test_a_view_token_is_the_hash_of_the_views_sorted_json_without_the_move_count():
    # Pages rendered before a release carry tokens in their forms; the spelling of
    # the JSON that is hashed must not drift, or every open page's next click is stale.
    import hashlib
    import json

    from games.pages import view_token

    view = {"b": [1, {"y": "ü", "x": None}], "a": 2.5, "move_count": 7}
    blob = json.dumps({"a": 2.5, "b": [1, {"x": None, "y": "ü"}]}, separators=(",", ":"))
    assert view_token(view) == "v" + hashlib.sha256(blob.encode()).hexdigest()[:20]
    assert view_token({**view, "move_count": 8}) == view_token(view)


def test_a_click_from_the_page_drawn_last_is_checked_without_building_the_view_again(
    client, started, count_kind, monkeypatch
):
    game, first, second = started
    token = board_page(game, first).token  # the page remembers the token of this version
    views = []
    real_view = count_kind.engine.view
    monkeypatch.setattr(
        count_kind.engine, "view", lambda state, seat: views.append(seat) or real_view(state, seat)
    )
    play.act(game.pk, first, {"type": "add", "n": 1}, token)
    assert 0 not in views  # the click's check read the remembered token
    # A remembered token belongs to one version: the page before that move is stale.
    game.refresh_from_db()
    with pytest.raises(play.StaleMove):
        play.act(game.pk, first, {"type": "end"}, token)
    # Nothing remembered (a cache that lost it): the view is built and the click checked.
    game.refresh_from_db()
    fresh = board_page(game, first).token
    from django.core.cache import cache

    cache.clear()
    views.clear()
    play.act(game.pk, first, {"type": "end"}, fresh)
    assert views[0] == 0


@pytest.mark.parametrize(
    "title, heading",
    [
        ("Count to Ten", "<h1>Count to Ten <small>#"),  # the form's default title
        ("Friday", "<h1>Friday <small>Count to Ten · #"),
    ],
)
def test_the_heading_names_the_kind_beside_a_title_of_its_own(client, count_kind, title, heading):
    from tests.factories import UserFactory, running_game

    users = [UserFactory(), UserFactory()]
    game = running_game("count", users, title=title)
    client.force_login(users[0])
    assert heading in client.get(f"/g/{game.pk}/").content.decode()


def test_a_title_in_another_language_of_the_site_still_names_the_kind(count_kind):
    from django.utils import translation

    from tests.factories import UserFactory, running_game

    game = running_game("siam", [UserFactory(), UserFactory()], title="König von Siam")
    with translation.override("en"):
        assert game.title_is_kind and game.named == "“König von Siam”"
    game.title = "Siam at night"
    with translation.override("de"):
        assert game.named == "„Siam at night“ (König von Siam)"


def test_a_name_ending_a_sentence_gives_up_its_full_stop(client, count_kind):
    """ "Agreed to cancel this game: Clara K." — one full stop, not two; the name is
    still escaped once."""
    from community import cancel
    from tests.factories import UserFactory, running_game

    clara, other = UserFactory(display_name="Clara K."), UserFactory(display_name="Tom & Jo")
    game = running_game("count", [clara, other])
    cancel.vote(game.pk, clara, True)
    client.force_login(other)
    text = client.get(f"/g/{game.pk}/").content.decode()
    assert "Agreed to cancel this game: Clara K. When every player" in text
    cancel.vote(game.pk, clara, False)
    cancel.vote(game.pk, other, True)
    text = client.get(f"/g/{game.pk}/").content.decode()
    assert "Agreed to cancel this game: Tom &amp; Jo. When every player" in text
