"""Every moderation action in the admin: a reason, a confirmation page, the
change through the site's own functions, and an audit entry nobody can change."""

import re

import pytest
from django.contrib.sessions.models import Session

from games import play
from games.models import ChatMessage, Game
from moderation.models import AppendOnly, AuditEntry, Report
from moderation.reports import file_report
from tests.factories import UserFactory

from .admin_helpers import moderator, run_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def mod(client):
    user = moderator()
    client.force_login(user)
    return user


def only_entry(action):
    entry = AuditEntry.objects.get(action=action)
    return entry


def test_abort_needs_a_reason_and_a_confirmation(client, mod, started):
    game, first, _ = started
    page, done = run_action(client, "/admin/games/game/", "abort_game", [game.pk], reason="")
    assert page.status_code == 200 and b"Reason" in page.content  # the confirmation page
    assert b"This field is required" in done.content
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not AuditEntry.objects.exists()

    run_action(client, "/admin/games/game/", "abort_game", [game.pk], reason="Cheating ring")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    entry = only_entry("abort")
    assert (entry.moderator, entry.target_game, entry.reason) == (mod, game, "Cheating ring")
    assert entry.moderator_name == mod.username and entry.created_at


def test_remove_player_follows_the_timeout_policy(client, mod, started):
    game, first, second = started
    seat = game.seats.get(user=first)
    run_action(client, "/admin/games/seat/", "remove_player", [seat.pk], reason="Abusive")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [1] and game.result["details"] == {"removed": [0]}
    entry = only_entry("remove_player")
    assert (entry.target_user, entry.target_game, entry.reason) == (first, game, "Abusive")


def test_remove_player_aborts_under_the_abort_policy(count_kind, alice, bob):
    game = play.create_game(
        alice,
        count_kind,
        title="T",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
        timeout_policy=Game.TimeoutPolicy.ABORT,
    )
    play.join(game.pk, bob)
    assert play.remove_player(game.pk, bob) == "aborted"
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.result["winners"] == []


def test_hide_and_unhide_a_chat_message(client, mod, started):
    game, first, second = started
    line = play.post_chat(game.pk, first, "rude words here")
    client_player = client.__class__()
    client_player.force_login(second)
    assert "rude words here" in client_player.get(f"/g/{game.pk}/").content.decode()

    run_action(client, "/admin/games/chatmessage/", "hide_message", [line.pk], reason="Insult")
    assert ChatMessage.objects.get(pk=line.pk).hidden
    assert "rude words here" not in client_player.get(f"/g/{game.pk}/").content.decode()
    run_action(client, "/admin/games/chatmessage/", "unhide_message", [line.pk], reason="Misread")
    assert not ChatMessage.objects.get(pk=line.pk).hidden
    assert "rude words here" in client_player.get(f"/g/{game.pk}/").content.decode()
    assert list(AuditEntry.objects.order_by("pk").values_list("action", "reason")) == [
        ("hide_message", "Insult"),
        ("unhide_message", "Misread"),
    ]


def test_resolve_a_report(client, mod, alice, bob):
    report = file_report(alice, bob, "Spams invitations")
    run_action(client, "/admin/moderation/report/", "resolve_report", [report.pk], "Warned")
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED and report.resolved_by == mod
    assert report.resolution == "Warned"
    entry = only_entry("resolve_report")
    assert (entry.target_user, entry.reason) == (bob, "Warned")
    # A second resolution is refused and leaves no second entry.
    run_action(client, "/admin/moderation/report/", "resolve_report", [report.pk], "Again")
    assert AuditEntry.objects.filter(action="resolve_report").count() == 1


def test_ban_ends_sessions_and_running_games_and_unban_restores(client, mod, started, count_kind):
    game, first, second = started
    waiting = play.create_game(
        first, count_kind, title="Open", players=3, options={}, time_limit_days=3, private=False
    )
    play.join(waiting.pk, second)
    player = client.__class__()
    player.force_login(first)
    assert Session.objects.count() == 2

    run_action(client, "/admin/accounts/user/", "ban", [first.pk], reason="Harassment")
    first.refresh_from_db()
    assert not first.is_active
    assert Session.objects.count() == 1  # only the moderator's
    game.refresh_from_db()
    # Policy "the late player loses": the banned player's seat lost at once.
    assert game.status == Game.Status.FINISHED and game.result["details"] == {"removed": [0]}
    assert not waiting.seats.filter(user=first).exists()
    assert only_entry("ban").target_user == first

    run_action(client, "/admin/accounts/user/", "unban", [first.pk], reason="Appeal accepted")
    first.refresh_from_db()
    assert first.is_active and only_entry("unban").reason == "Appeal accepted"


def test_the_active_flag_is_not_a_tick_box_in_the_admin(client, mod, alice):
    page = client.get(f"/admin/accounts/user/{alice.pk}/change/").content.decode()
    assert 'name="is_active"' not in page


def test_a_moderator_without_the_permission_gets_no_actions(client, started):
    game, *_ = started
    staff = UserFactory(is_staff=True)
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    client.force_login(staff)
    page = client.get("/admin/games/game/").content.decode()
    assert "abort_game" not in page
    client.post(
        "/admin/games/game/",
        {"action": "abort_game", "_selected_action": [game.pk], "confirm": "yes", "reason": "x"},
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_audit_entries_cannot_be_edited_or_deleted(client, mod, alice, bob):
    report = file_report(alice, bob, "Spam")
    run_action(client, "/admin/moderation/report/", "resolve_report", [report.pk], "Done")
    entry = AuditEntry.objects.get()
    # Not in the admin, for superusers neither ...
    url = f"/admin/moderation/auditentry/{entry.pk}/"
    page = client.get(url + "change/").content.decode()
    assert "Done" in page and 'name="reason"' not in page
    assert client.post(url + "change/", {"reason": "Changed"}).status_code == 403
    assert client.post(url + "delete/", {"post": "yes"}).status_code == 403
    listing = client.get("/admin/moderation/auditentry/").content.decode()
    assert "delete_selected" not in listing
    # ... nor in code.
    entry.reason = "Changed"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        AuditEntry.objects.all().delete()
    with pytest.raises(AppendOnly):
        AuditEntry.objects.update(reason="Changed")
    assert AuditEntry.objects.get().reason == "Done"


def test_the_game_change_page_has_no_user_drop_down_and_few_queries(
    client, mod, started, django_assert_max_num_queries
):
    game, first, _ = started
    for _ in range(4):
        play.act(game.pk, game.seats.get(to_move=True).user, {"type": "add", "n": 1}, None)
        play.act(game.pk, game.seats.get(to_move=True).user, {"type": "end"}, None)
    with django_assert_max_num_queries(15):
        page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "<select" not in page.split('id="game_form"')[1].split("</form>")[0]
    assert "Read the move log" in page


def test_on_the_game_change_page_only_the_title_is_edited_and_games_are_not_added_here(
    client, mod, started
):
    game, first, _ = started
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    form = page.split('id="game_form"')[1].split("</form>")[0]
    inputs = set(re.findall(r'<(?:input|textarea|select)[^>]*name="([a-z_]+)"', form))
    assert "title" in inputs
    assert not inputs & {"computer_played", "last_move_at", "seed", "status", "players"}
    assert str(game.seed) not in page and game.seed_salt not in page  # a running game's secret
    moved = game.last_move_at
    # The form as the browser sends it (management forms included), with forged extras.
    data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    data.update({"title": "Renamed", "computer_played": "on", "last_move_at_0": "2020-01-01",
                 "last_move_at_1": "00:00:00"})  # fmt: skip
    response = client.post(f"/admin/games/game/{game.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert game.title == "Renamed"
    assert not game.computer_played and game.last_move_at == moved
    assert client.get("/admin/games/game/add/").status_code == 403


def test_the_abort_form_says_its_reason_is_public(client, mod, started):
    game, _, _ = started
    page, _done = run_action(client, "/admin/games/game/", "abort_game", [game.pk], "Cheating")
    assert "shown to the players and everyone who opens the game" in page.content.decode()
    assert "A moderator aborted the game: Cheating" in client.get(f"/g/{game.pk}/").content.decode()


def test_a_moderator_ends_an_agreed_pause_in_the_admin(client, mod, started):
    from datetime import timedelta

    from django.utils import timezone

    from agreements import flows

    game, first, second = started
    request = flows.ask(game.pk, first, "pause", timezone.now() + timedelta(days=5))
    flows.answer(game.pk, second, request.pk, True)
    game.refresh_from_db()
    assert game.paused_until is not None
    run_action(client, "/admin/games/game/", "end_pause", [game.pk], reason="They asked us")
    game.refresh_from_db()
    assert game.paused_until is None and game.deadline is not None
    entry = only_entry("end_pause")
    assert (entry.moderator, entry.target_game, entry.reason) == (mod, game, "They asked us")
    # Not paused any more: nothing to end, nothing audited.
    run_action(client, "/admin/games/game/", "end_pause", [game.pk], reason="Again")
    assert AuditEntry.objects.filter(action="end_pause").count() == 1
