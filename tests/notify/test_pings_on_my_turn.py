"""The issue's "done when": a player enables push on a device and a Discord webhook on
the settings page, gets both on their turn, and nothing during their quiet hours."""

import datetime

import pytest
from django.test import Client

from .conftest import drain, subscribe, turn

pytestmark = pytest.mark.django_db


def test_push_and_discord_on_my_turn_and_nothing_in_quiet_hours(
    game, anna, bert, push_service, hooks, clock
):
    discord = hooks()
    client = Client()
    client.force_login(bert)
    assert subscribe(client, push_service.subscription("bert"), "Phone").status_code == 201
    response = client.post(
        "/notify/webhooks/add",
        {
            "service": "discord",
            "url": discord.url + "/api/webhooks/1/t",
            "events": ["turn"],
            "quiet_hours": "on",
        },
    )
    assert response.status_code == 302
    page = client.get("/settings/").content.decode()
    assert "Phone" in page and "discord" in page.lower()

    turn(game, anna)  # noon UTC, 14:00 in Berlin: bert's turn
    drain()
    assert len(push_service.payloads("bert")) == 1 and len(discord.bodies()) == 1
    assert "Your turn in “Counting”" in discord.bodies()[0]["content"]

    bert.quiet_from, bert.quiet_until = datetime.time(14, 0), datetime.time(16, 0)
    bert.save()
    turn(game, bert)
    turn(game, anna)  # bert's turn again, in his quiet hours
    drain()
    assert len(push_service.payloads("bert")) == 1 and len(discord.bodies()) == 1
    clock.shift(datetime.timedelta(hours=2))  # 16:00 in Berlin: quiet hours over
    drain()
    assert len(push_service.payloads("bert")) == 2 and len(discord.bodies()) == 2
