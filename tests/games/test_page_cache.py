"""A reload of an unchanged game page is a cache hit, and every change a player
can make or see shows on the next load (games.pagecache).

These tests switch PAGE_CACHE_CHECK off: they look at what a hit really serves.
"""

import datetime
import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import fragments, pagecache, play, release
from games.models import Game
from moderation import actions
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _real_hits(settings):
    settings.PAGE_CACHE_CHECK = False


@contextmanager
def page_renders():
    names = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(seen)
    try:
        yield lambda: names.count("games/game.html")
    finally:
        template_rendered.disconnect(seen)


def page(client, game, query=""):
    response = client.get(f"/g/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_a_reload_renders_nothing_and_asks_the_database_little(client, started):
    game, first, _ = started
    client.force_login(first)
    with page_renders() as renders:
        one = page(client, game)
        with CaptureQueriesContext(connection) as queries:
            two = page(client, game)
        assert renders() == 1
    # session, user, game, seats, the counts of the key: nothing that grows with the game
    assert len(queries) <= 6, [q["sql"][:80] for q in queries]
    strip = re.compile(r"\b([A-Za-z0-9]{64}|[0-9a-f]{32})\b")
    assert strip.sub("", one) == strip.sub("", two)


def test_a_cached_page_carries_this_requests_click_id_and_a_csrf_token_that_works(started):
    game, first, _ = started
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(first)
    page(browser, game)
    cached = page(browser, game)
    assert pagecache.CSRF_MARK not in cached and pagecache.REQUEST_ID_MARK not in cached
    request_id = re.search(r'data-request-id="([0-9a-f]+)"', cached).group(1)
    assert set(re.findall(r'name="request_id" value="([^"]*)"', cached)) == {request_id}
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', cached).group(1)
    action = re.search(r'name="action" value="([^"]*)"', cached).group(1).replace("&quot;", '"')
    response = browser.post(
        f"/g/{game.pk}/act",
        {"csrfmiddlewaretoken": token, "action": action, "request_id": request_id},
    )
    assert response.status_code in (200, 302)
    game.refresh_from_db()
    assert game.move_count == 1
    assert "adds" in page(browser, game)


def test_each_viewer_has_their_own_page(client, started):
    game, first, second = started
    client.force_login(first)
    mine = page(client, game)
    client.force_login(second)
    theirs = page(client, game)
    assert "Add 1</button>" in mine and "Add 1</button>" not in theirs
    anonymous = page(Client(), game)
    assert "Add 1</button>" not in anonymous and "Sign in" in anonymous


def test_a_move_by_the_other_player_shows_on_the_next_load(client, started):
    game, first, second = started
    client.force_login(second)
    page(client, game)
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    assert "adds 2." in page(client, game)


def test_a_chat_line_and_a_moderator_hiding_it_show_on_the_next_load(client, started):
    game, first, second = started
    client.force_login(second)
    page(client, game)
    line = play.post_chat(game.pk, first, "good luck, have fun")
    assert "good luck, have fun" in page(client, game)
    actions.hide_message(UserFactory(is_staff=True), line, "test")
    assert "good luck, have fun" not in page(client, game)


def test_muting_a_player_hides_their_lines_on_the_next_load(client, started):
    game, first, second = started
    play.post_chat(game.pk, first, "listen to me")
    client.force_login(second)
    assert "listen to me" in page(client, game)
    client.post(f"/u/{first.username}/mute/", {"next": game.get_absolute_url()})
    assert "listen to me" not in page(client, game)


def test_a_cancel_vote_and_its_withdrawal_show_on_the_next_load(client, started):
    game, first, second = started
    client.force_login(second)
    page(client, game)
    play_client = Client()
    play_client.force_login(first)
    play_client.post(f"/g/{game.pk}/cancel", {"vote": "yes"})
    assert f"Agreed to cancel this game: {first.name}" in page(client, game)
    play_client.post(f"/g/{game.pk}/cancel", {"vote": "no"})
    assert "Agreed to cancel this game" not in page(client, game)


def test_muting_email_about_the_game_shows_on_the_next_load(client, started):
    game, first, _ = started
    client.force_login(first)
    assert "No messages about this game" in page(client, game)
    client.post(f"/notify/game/{game.pk}/mute", {"mute": "1"})
    assert "You get no messages about this game (e-mail, push, webhooks)." in page(client, game)


def test_a_new_name_a_vacation_and_a_language_show_on_the_next_load(client, started):
    game, first, second = started
    client.force_login(second)
    page(client, game)
    first.display_name = "Alicia"
    first.vacation_until = timezone.localdate() + datetime.timedelta(days=3)
    first.save()
    shown = page(client, game)
    assert "Alicia" in shown and "on vacation until" in shown
    second.language = "de"
    second.save()
    assert "Verlauf" in page(client, game)


def test_the_time_left_counts_down_on_a_cached_page(client, started):
    game, first, _ = started
    client.force_login(first)
    with time_machine.travel(game.deadline - datetime.timedelta(hours=5), tick=False):
        assert "Time left for this move: 5\xa0hours." in page(client, game)
    with time_machine.travel(game.deadline - datetime.timedelta(hours=2), tick=False):
        assert "Time left for this move: 2\xa0hours." in page(client, game)


def test_the_turn_badge_counts_other_games_that_start_waiting(client, started, count_kind):
    game, first, second = started
    client.force_login(second)
    assert 'class="badge"' not in page(client, game)
    other = play.create_game(
        second, count_kind, title="Other", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(other.pk, first)
    other.refresh_from_db()
    if not other.seats.get(user=second).to_move:
        play.act(other.pk, first, {"type": "add", "n": 1}, None)
        play.act(other.pk, first, {"type": "end"}, None)
    assert other.seats.get(user=second).to_move
    assert 'class="badge"' in page(client, game)


def test_a_flash_message_is_shown_once_and_never_cached(client, started):
    game, first, _ = started
    client.force_login(first)
    click = {"action": '{"type": "add", "n": 1}', "request_id": "click-0001"}
    client.post(f"/g/{game.pk}/act", click)
    page(client, game)  # the new position, cached
    client.post(f"/g/{game.pk}/act", click)  # the same click again: a notice, nothing played
    assert "already arrived and was recorded" in page(client, game)
    assert "already arrived and was recorded" not in page(client, game)


def test_the_checker_catches_a_page_input_left_out_of_the_key(client, started, settings):
    settings.PAGE_CACHE_CHECK = True
    game, first, second = started
    client.force_login(second)
    page(client, game)
    with mock.patch.object(pagecache, "_row", lambda obj: [obj.pk]):  # forgets the game's row
        page(client, game)
        Game.objects.filter(pk=game.pk).update(title="A new title")  # by a moderator
        with pytest.raises(pagecache.StalePage):
            page(client, game)


def test_a_failing_cache_costs_a_render_not_the_page(client, started):
    game, first, _ = started
    client.force_login(first)
    broken = mock.Mock()
    broken.get.side_effect = ConnectionError("cache down")
    broken.set.side_effect = ConnectionError("cache down")
    with mock.patch.object(fragments, "cache", broken), page_renders() as renders:
        assert "Add 1</button>" in page(client, game)
        assert "Add 1</button>" in page(client, game)
        assert renders() == 2


def test_a_new_release_draws_the_page_and_board_afresh(client, started):
    """After a deploy, an unchanged position is not served the last release's HTML."""
    game, first, _ = started
    client.force_login(first)
    boards = []

    def seen(sender, template, context, **kwargs):
        boards.append(template.name)

    with page_renders() as renders:
        page(client, game)
        page(client, game)
        assert renders() == 1
        template_rendered.connect(seen)
        try:
            with mock.patch("games.release.digest", return_value="another-release"):
                page(client, game)
        finally:
            template_rendered.disconnect(seen)
        assert renders() == 2
    assert "games/board_generic.html" in boards  # the board fragment too, not only the page


def test_the_release_digest_follows_what_draws_and_nothing_else(tmp_path):
    app = tmp_path / "app"
    (app / "templates").mkdir(parents=True)
    (app / "tests").mkdir()
    (app / "templates" / "page.html").write_text("<p>one</p>")
    (app / "tests" / "test_page.py").write_text("x = 1")
    (app / "notes.wav").write_bytes(b"RIFF")

    def digest():
        return release.digest_of([app], tmp_path)

    before = digest()
    (app / "tests" / "test_page.py").write_text("x = 2")
    (app / "notes.wav").write_bytes(b"RIFF2")
    assert digest() == before
    (app / "templates" / "page.html").write_text("<p>two</p>")
    assert digest() != before


def test_the_release_is_read_from_the_projects_files_never_the_installed_packages():
    folders = release.folders()
    base = Path(settings.BASE_DIR).resolve()
    assert base / "templates" in folders and base / "tal" in folders
    assert all(not f.is_relative_to(Path(sys.prefix).resolve()) for f in folders)


def test_in_development_an_edited_template_changes_the_release(settings, tmp_path, monkeypatch):
    """runserver restarts for Python, not for a template: the digest follows the files."""
    settings.DEBUG = True
    monkeypatch.setattr(release, "folders", lambda: [tmp_path])
    monkeypatch.setattr(release, "RECHECK_SECONDS", 0)
    template = tmp_path / "page.html"
    template.write_text("<p>one</p>")
    os.utime(template, ns=(1, 1_000_000_000))
    before = release.digest()
    assert release.digest() == before
    os.utime(template, ns=(1, 2_000_000_000))  # saved again
    assert release.digest() != before


def test_the_badge_counts_an_invitation_and_a_rematch_offer_on_a_cached_page(
    client, started, count_kind
):
    """Both wait on "My games" for an answer, like a move: the menu shows them, on a
    page from the cache too, and not once they are answered."""
    from community import rematch
    from lobby import invites
    from tests.community.helpers import finish_by_play

    game, first, second = started
    waiting = first if game.seats.get(user=first).to_move else second
    other = second if waiting == first else first
    client.force_login(other)
    badge = re.compile(r'<span class="badge"[^>]*>(\d+)</span>')
    assert not badge.search(page(client, game))
    host = UserFactory()
    open_game = play.create_game(
        host, count_kind, title="Open", players=3, options={}, time_limit_days=3, private=True
    )
    invitation = invites.invite(open_game.pk, host, other.username)
    assert badge.search(page(client, game)).group(1) == "1"
    assert badge.search(client.get("/").content.decode()).group(1) == "1"
    invites.answer(invitation.pk, other, accept=False)
    assert not badge.search(page(client, game))
    done = play.create_game(
        host, count_kind, title="Done", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(done.pk, other)
    finish_by_play(done)
    rematch.answer(done.pk, host, True)
    assert badge.search(page(client, game)).group(1) == "1"
    assert badge.search(client.get("/my/").content.decode()).group(1) == "1"
    rematch.answer(done.pk, other, False)
    assert not badge.search(page(client, game))
