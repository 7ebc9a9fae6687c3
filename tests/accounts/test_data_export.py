"""Download my data: everything the site holds about the player, nothing of anyone's
secrets, and a walk over the models that fails when a new one is forgotten."""

import io
import json
import zipfile

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from accounts import export
from community.models import RatingChange
from games import play, record, replay
from moderation.models import AuditEntry
from notify.models import PushDevice, Webhook
from tal.engine import ENGINE as TAL
from tests.factories import UserFactory, running_game
from tests.tal_web.conftest import play_to, seat_user

pytestmark = pytest.mark.django_db


def models_pointing_at_the_user():
    """Every model with a key (foreign, one-to-one, many-to-many) to the user model,
    their own through tables included, and those the user model's reverse relations
    name (``related_objects``)."""
    user_model = get_user_model()
    found = {user_model._meta.label}
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.get_fields():
            if field.is_relation and field.related_model is user_model and field.concrete:
                found.add(model._meta.label)
    found |= {rel.related_model._meta.label for rel in user_model._meta.related_objects}
    for field in user_model._meta.many_to_many:
        found.add(field.remote_field.through._meta.label)
    return found


def test_every_model_about_a_player_is_exported_or_left_out_with_a_reason():
    found = models_pointing_at_the_user()
    forgotten = found - set(export.COVERED) - set(export.LEFT_OUT)
    assert not forgotten, f"export these in accounts.export or list them in LEFT_OUT: {forgotten}"
    assert not set(export.COVERED) & set(export.LEFT_OUT)
    assert all(reason.strip() for reason in export.LEFT_OUT.values())
    stale = (set(export.COVERED) | set(export.LEFT_OUT)) - found
    assert not stale, f"no such model points at the user any more: {stale}"


def download(client, user):
    client.force_login(user)
    response = client.post("/settings/data/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="my-data-')
    zipped = zipfile.ZipFile(io.BytesIO(response.content))
    files = {name: json.loads(zipped.read(name)) for name in zipped.namelist()}
    return files.pop("data.json"), files


def test_the_download_holds_chat_with_its_game_a_webhook_a_record_and_the_ratings(client):
    me, rival = UserFactory(display_name="Mira"), UserFactory(display_name="Rolf")
    game = running_game("siam", [me, rival], title="Our duel")
    play.post_chat(game.pk, me, "well played so far")
    play.resign(game.pk, rival)
    Webhook.objects.create(
        user=me, service="json", url="https://hooks.example/mine", secret="signing-key-9"
    )
    PushDevice.objects.create(
        user=me, name="phone", endpoint="https://push.example/d", p256dh="pub-key-7", auth="auth-5"
    )
    AuditEntry.objects.create(
        moderator=rival, moderator_name="mod", action="ban", target_user=me, reason="spam"
    )
    assert RatingChange.objects.filter(user=me).exists()

    data, records = download(client, me)

    assert data["account"]["username"] == me.username and data["account"]["email"] == me.email
    assert [row["email"] for row in data["email_addresses"]] == [me.email]
    [line] = data["chat"]
    assert line["text"] == "well played so far" and line["game"] == game.pk
    assert line["game_title"] == "Our duel" and sorted(line["players"]) == ["Mira", "Rolf"]
    assert [hook["url"] for hook in data["webhooks"]] == ["https://hooks.example/mine"]
    assert [device["endpoint"] for device in data["push_devices"]] == ["https://push.example/d"]
    text = json.dumps(data)
    for secret in ("signing-key-9", "pub-key-7", "auth-5", me.password):
        assert secret not in text
    [game_entry] = data["games"]
    assert game_entry["record"] == f"records/game-{game.pk}.json"
    assert record.verify(records[game_entry["record"]])["status"] == "finished"
    [change] = data["rating_history"]
    assert change["game_id"] == game.pk and change["after"] > change["before"]
    assert [row["kind"] for row in data["ratings"]] == ["siam"]
    assert [(e["action"], e["reason"]) for e in data["moderation"]] == [("ban", "spam")]
    assert "settings" in data and data["settings"]["time_zone"] == me.time_zone


def test_a_running_game_is_exported_as_the_players_own_view_only(client, users):
    """Tal der Könige: the other seat's secret plan is not in the download until revealed;
    no running game's seed or move list is."""
    game = running_game("tal", users[:2])
    state = play_to(game, "plan", seed=2)
    planner = 0
    occupied = {p for s in range(2) for p in state.overseers[s] + state.workers[s]}
    targets = []
    for index in range(2):
        options = [
            a["to"]
            for a in TAL.legal_actions(replay.current_state(game), planner)
            if a["type"] == "plan" and a["index"] == index and "-" in a["to"]
        ]
        target = [n for n in options if n not in occupied and n not in targets][-1]
        targets.append(target)
        play.act(
            game.pk, seat_user(game, planner), {"type": "plan", "index": index, "to": target}, None
        )
    play.act(game.pk, seat_user(game, planner), {"type": "submit_plan"}, None)

    mine, _ = download(client, seat_user(game, planner))
    theirs, _ = download(client, seat_user(game, 1))

    [own] = mine["games"]
    assert own["my_view"]["view"]["seats"][planner]["plan"] == targets
    [entry] = theirs["games"]
    export_of_game = entry["my_view"]
    assert export_of_game["viewer"] == 1 and "record" not in entry
    assert "seed" not in export_of_game and "moves" not in export_of_game
    view = export_of_game["view"]
    assert view["seats"][planner]["plan"] is None
    log = json.dumps(view["log"])
    assert all(target not in log for target in targets)
    assert all(target in json.dumps(own["my_view"]["view"]["log"]) for target in targets)


def test_a_king_of_siam_running_game_has_no_seed_in_the_download(client):
    players = [UserFactory() for _ in range(4)]
    game = running_game("siam", players)
    data, records = download(client, players[1])
    [entry] = data["games"]
    assert records == {}
    assert entry["my_view"]["complete"] is False
    text = json.dumps(data)
    assert str(game.seed) not in text and game.seed_salt not in text


def test_the_download_page_says_what_it_holds_and_posts(client):
    me = UserFactory()
    client.force_login(me)
    assert 'href="/settings/data/"' in client.get("/settings/").content.decode()
    page = client.get("/settings/data/").content.decode()
    assert '<form method="post">' in page and "chat lines" in page
    assert client.put("/settings/data/").status_code == 405
