"""Deleting an account: the person is gone from every table, page, export and queue;
their games go on without them and stay whole (they replay, their records verify)."""

import io
import json
import threading
import zipfile
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command
from django.db import connection, models
from django.db.models import Q
from django.utils import timezone

from accounts import erase, export
from accounts.models import User
from community.models import RatingChange
from games import play, record, replay
from games.models import CalendarKey, ChatMessage, Game, Premove
from moderation.models import AuditEntry, Report
from notify.models import Notification, PushDevice, Webhook
from social.models import Block, Follow
from tests.conftest import need_service
from tests.factories import UserFactory, running_game
from tests.tournaments import helpers as tournament_helpers
from tournaments import running as tournaments
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

USERNAME = "zebulon_quux"
DISPLAY = "Quirinius Vexmoor"
EMAIL = "zeb.private@example.org"
PASSWORD = "a-long-test-password"
TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


def traces(*needles):
    """Every (table, column) whose text holds one of ``needles``: a scan of the database."""
    found = []
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.concrete_fields:
            if not isinstance(field, TEXT_FIELDS):
                continue
            for needle in needles:
                if model._base_manager.filter(**{f"{field.name}__icontains": needle}).exists():
                    found.append((model._meta.label, field.name, needle))
    return found


@pytest.fixture
def player(db):
    return UserFactory(username=USERNAME, display_name=DISPLAY, email=EMAIL)


def deleted(player, django_capture_on_commit_callbacks, **kwargs):
    with django_capture_on_commit_callbacks(execute=True):
        erase.delete_account(player, **kwargs)
    player.refresh_from_db()
    return player


def test_the_deleted_player_leaves_no_trace_and_their_games_go_on(
    client, player, django_capture_on_commit_callbacks
):
    others = [UserFactory(display_name=f"Other{n}") for n in range(5)]
    # A running 4-player King of Siam (two teams) and a running Tal der Könige.
    team_game = running_game("siam", [player, *others[:3]])
    tal_game = running_game("tal", [player, others[3]])
    tal_game.timeout_policy = Game.TimeoutPolicy.LOSE
    tal_game.save(update_fields=["timeout_policy"])
    # A finished, rated King of Siam the player won.
    finished = running_game("siam", [player, others[4]])
    play.resign(finished.pk, others[4])
    # What the person leaves about: chat, devices, hooks, relations, queued mail.
    play.post_chat(tal_game.pk, player, f"my own words to @{others[3].username}, by {DISPLAY}")
    play.post_chat(tal_game.pk, others[3], f"good move @{USERNAME}, {DISPLAY}!")
    PushDevice.objects.create(
        user=player, name="phone", endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    Webhook.objects.create(user=player, service="json", url="https://hook.example/z", secret="s")
    CalendarKey.objects.create(user=player)
    Follow.objects.create(follower=player, followed=others[0])
    Block.objects.create(blocker=others[1], blocked=player)
    Report.objects.create(reporter=others[2], reported=player, reason=f"{USERNAME} was rude")
    AuditEntry.objects.create(
        moderator=others[2],
        moderator_name="mod",
        action="hide_message",
        target_user=player,
        target=f"{USERNAME}: hi",
        reason=f"{DISPLAY} insulted {others[0].name}",
    )
    Notification.objects.create(
        user=player,
        address=EMAIL,
        kind="raw",
        dedupe_key="x",
        due_at=timezone.now(),
        subject=f"Hello {DISPLAY}",
        text=f"Hello {USERNAME}",
    )
    mention = Notification.objects.get(chat_message__user=player, sent_at=None)
    client.force_login(player)  # a session in the database
    tal_seat = tal_game.seat_of(player).number
    partner = team_game.seats.get(number=(team_game.seat_of(player).number + 2) % 4).user
    mail.outbox.clear()

    player = deleted(player, django_capture_on_commit_callbacks)

    pseudonym = f"Deleted player {player.pk}"
    assert player.display_name == pseudonym and player.name == pseudonym
    assert not player.is_active and not player.has_usable_password()
    assert traces(USERNAME, DISPLAY, EMAIL) == []
    entry = AuditEntry.objects.get(action="hide_message")  # what was done stays, named anew
    assert (entry.target, entry.reason) == (f"{pseudonym}: hi", f"{pseudonym} insulted Other0")
    assert not EmailAddress.objects.filter(user=player).exists()
    assert not Session.objects.filter(session_key=client.session.session_key).exists()
    for model, key in [
        (PushDevice, "user"),
        (Webhook, "user"),
        (CalendarKey, "user"),
        (Premove, "user"),
        (Follow, "follower"),
        (Block, "blocked"),
    ]:
        assert not model.objects.filter(**{key: player}).exists(), model
    assert not Notification.objects.filter(Q(user=player) | Q(address__iexact=EMAIL)).exists()
    assert not Notification.objects.filter(pk=mention.pk).exists()  # of a blanked line
    # The team game goes on: a computer holds the seat, the partner plays on.
    team_game.refresh_from_db()
    assert team_game.status == Game.Status.ACTIVE
    assert team_game.seat_of(player) is None
    assert team_game.seats.get(user=partner)
    # The Tal game ends: the player resigned; its record verifies.
    tal_game.refresh_from_db()
    assert tal_game.status == Game.Status.FINISHED
    assert tal_game.result["details"] == {"resigned": tal_seat}
    for game in (tal_game, finished):
        game.refresh_from_db()
        data = json.loads(json.dumps(record.export(game, others[4]), default=str))
        assert record.verify(data)["status"] == game.status
        assert pseudonym in [seat["name"] for seat in data["seats"]]
    call_command("check_replays", "--all", stdout=io.StringIO())
    assert RatingChange.objects.filter(user=player, game=finished).exists()  # ratings stay
    # Their own chat line is blanked in place; others' lines name the pseudonym.
    lines = ChatMessage.objects.filter(game=tal_game).order_by("pk")
    assert [line.text for line in lines] == ["", f"good move @{pseudonym}, {pseudonym}!"]
    # The opponents' pages show the pseudonym and "message removed" for their lines; the
    # team game's shows the computer that holds the seat now.
    for viewer, game in ((partner, team_game), (others[3], tal_game)):
        client.force_login(viewer)
        page = client.get(f"/g/{game.pk}/").content.decode()
        assert USERNAME not in page and DISPLAY not in page
    assert pseudonym in page and "message removed" in page
    # One last mail, to the old address, and nothing queued for it afterwards.
    to_them = [message for message in mail.outbox if EMAIL in message.to]
    assert [message.subject for message in to_them] == ["Your account has been deleted"]
    assert all(
        USERNAME not in m.body and DISPLAY not in m.body for m in mail.outbox if m not in to_them
    )
    assert not Notification.objects.filter(user=player, sent_at=None).exists()
    # It cannot sign in, by name or by address.
    client.logout()
    assert not client.login(username=USERNAME, password=PASSWORD)
    assert not client.login(username=player.username, password=PASSWORD)
    response = client.post("/accounts/login/", {"login": EMAIL, "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert response.status_code == 200
    # Its own export holds nothing of the person any more.
    data, _records = export.collect(player)
    text = json.dumps(data, default=str)
    assert USERNAME not in text and DISPLAY not in text and EMAIL not in text


def test_a_tournament_the_player_was_in_goes_on(player, django_capture_on_commit_callbacks):
    tournament = tournament_helpers.make(kind="tal", options={}, entrants=3)
    tournaments.enter(tournament.pk, player)
    tournament = tournament_helpers.start(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    deleted(player, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Entrant.objects.get(tournament=tournament, user=player).status == "withdrawn"
    for game in tournament_helpers.running_games(tournament):
        assert game.seat_of(player) is None
    for game in Game.objects.filter(tournament_table__tournament=tournament):
        replay.current_state(game)  # every game of the tournament still replays


def test_an_open_game_they_created_is_cancelled_and_one_they_joined_left(
    player, count_kind, django_capture_on_commit_callbacks
):
    other = UserFactory()
    mine = play.create_game(
        player, count_kind, title="mine", players=3, options={}, time_limit_days=3, private=False
    )
    play.join(mine.pk, other)
    theirs = play.create_game(
        other, count_kind, title="theirs", players=3, options={}, time_limit_days=3, private=False
    )
    play.join(theirs.pk, player)
    deleted(player, django_capture_on_commit_callbacks)
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.status == Game.Status.ABORTED
    assert theirs.status == Game.Status.OPEN and theirs.seat_of(player) is None


def test_a_stand_in_policy_gives_the_seat_to_a_computer(player, django_capture_on_commit_callbacks):
    opponent = UserFactory()
    game = running_game("tal", [player, opponent])
    Game.objects.filter(pk=game.pk).update(timeout_policy=Game.TimeoutPolicy.STAND_IN)
    deleted(player, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    seat = game.seats.exclude(user=opponent).get()
    assert seat.user.is_bot and seat.stood_in_for is None


def test_the_farewell_mail_failing_is_logged_without_the_address(
    player, settings, caplog, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 25999, 2
    deleted(player, django_capture_on_commit_callbacks)
    assert not player.is_active
    assert "farewell mail failed" in caplog.text
    assert EMAIL not in caplog.text


def test_the_settings_page_asks_for_the_password_and_the_user_name(client, player):
    client.force_login(player)
    assert 'href="/settings/delete/"' in client.get("/settings/").content.decode()
    page = client.get("/settings/delete/")
    assert page.status_code == 200 and 'type="password"' in page.content.decode()
    wrong = [
        {"password": "not-it", "username": USERNAME},
        {"password": PASSWORD, "username": "zebulon"},
        {"password": PASSWORD, "username": ""},
    ]
    for data in wrong:
        assert client.post("/settings/delete/", data).status_code == 200
        player.refresh_from_db()
        assert player.is_active and player.username == USERNAME
    response = client.post("/settings/delete/", {"password": PASSWORD, "username": USERNAME})
    assert response.status_code == 302
    player.refresh_from_db()
    assert not player.is_active and player.display_name.startswith("Deleted player")
    assert "_auth_user_id" not in client.session


def test_the_pages_are_for_signed_in_players(client):
    for path in ("/settings/delete/", "/settings/data/"):
        response = client.post(path, {"password": "x", "username": "y"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_moderator_deletes_an_account_from_the_admin_with_a_reason(
    client, player, django_capture_on_commit_callbacks
):
    moderator = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(moderator)
    form = {"action": "delete_account", "_selected_action": [player.pk]}
    confirm = client.post("/admin/accounts/user/", form)
    assert confirm.status_code == 200 and "Reason" in confirm.content.decode()
    assert User.objects.get(pk=player.pk).is_active
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/admin/accounts/user/", {**form, "confirm": "1", "reason": "asked by mail"})
    player.refresh_from_db()
    assert not player.is_active and player.display_name == f"Deleted player {player.pk}"
    entry = AuditEntry.objects.get(action="delete_account")
    assert entry.target_user_id == player.pk and entry.reason == "asked by mail"
    assert entry.target == f"Deleted player {player.pk}"
    assert traces(USERNAME, DISPLAY, EMAIL) == []
    # The admin's own "delete" would remove the row and break the opponents' games.
    assert "delete_selected" not in client.get("/admin/accounts/user/").content.decode()
    assert (
        client.post(f"/admin/accounts/user/{player.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert User.objects.filter(pk=player.pk).exists()


def test_a_deleted_account_is_not_deleted_twice_and_computers_not_at_all(player):
    erase.delete_account(player)
    with pytest.raises(erase.EraseError):
        erase.delete_account(User.objects.get(pk=player.pk))
    bot = UserFactory(is_bot=True)
    with pytest.raises(erase.EraseError):
        erase.delete_account(bot)
    assert User.objects.get(pk=bot.pk).is_active


def test_a_second_download_waits_for_the_interval(client, player, settings):
    settings.DATA_EXPORT_INTERVAL_MINUTES = 10
    client.force_login(player)
    first = client.post("/settings/data/")
    assert first.status_code == 200 and first["Content-Type"] == "application/zip"
    assert "data.json" in zipfile.ZipFile(io.BytesIO(first.content)).namelist()
    second = client.post("/settings/data/")
    assert second.status_code == 302
    User.objects.filter(pk=player.pk).update(
        data_exported_at=timezone.now() - timedelta(minutes=11)
    )
    assert client.post("/settings/data/").status_code == 200


def test_german_pages_name_the_deleted_player_in_german(
    client, player, django_capture_on_commit_callbacks
):
    opponent = UserFactory(language="de")
    game = running_game("siam", [player, opponent])
    deleted(player, django_capture_on_commit_callbacks)
    client.force_login(opponent)
    page = client.get(f"/g/{game.pk}/", headers={"Accept-Language": "de"}).content.decode()
    assert f"Gelöschter Spieler {player.pk}" in page
    assert f"Deleted player {player.pk}" not in page


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"password": ["a", "b"], "username": ["x", "y"]},
        {"password": "x" * 10000, "username": "y" * 10000},
        {"password": PASSWORD, "username": USERNAME + "\x00"},
    ],
)
def test_junk_posted_to_the_deletion_page_is_refused_and_changes_nothing(client, player, data):
    client.force_login(player)
    response = client.post("/settings/delete/", data)
    assert response.status_code in (200, 400)
    player.refresh_from_db()
    assert player.is_active and player.username == USERNAME and player.email == EMAIL


@pytest.mark.django_db(transaction=True)
def test_two_deletions_at_once_delete_once_and_mail_once():
    """A double click: both requests pass the first check; the row lock lets one through."""
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    UserFactory(username=USERNAME, display_name=DISPLAY, email=EMAIL)
    barrier = threading.Barrier(2)
    outcomes = []

    def run():
        copy = User.objects.get(username=USERNAME)  # each request loaded the account
        barrier.wait()
        try:
            erase.delete_account(copy)
            outcomes.append("deleted")
        except erase.EraseError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["deleted", "refused"]
    assert [message.to for message in mail.outbox] == [[EMAIL]]
