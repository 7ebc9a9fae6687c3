"""A person challenges the example bot (clients/python/example_bot.py, on the reference
client) from the waiting page of their game and plays against it to the end in
Chromium, while the bot plays through the API alone (uvicorn, config.asgi)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from api import tokens
from api.models import BotAccount
from games import play
from games.models import Game
from lobby import invites
from tests.factories import UserFactory
from tests.live.conftest import _live_state, asgi_server, cookie_of  # noqa: F401  (fixtures)

from .conftest import CSP_VIOLATIONS, watch_csp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
from example_bot import strategy  # noqa: E402
from pbw_client import Bot, Client  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_challenges_the_example_bot_and_plays_it_to_the_end(
    browser,
    asgi_server,  # noqa: F811
    count_kind,
    settings,
):
    settings.API_RATE_LIMIT = "100000/m"
    person = UserFactory(username="pia", display_name="Pia")
    robot = UserFactory(username="examplebot", display_name="Example bot")
    BotAccount.objects.create(user=robot, listed=True)
    client = Client(asgi_server.url, tokens.make(robot, "bot", ["read", "play"])[1])
    game = play.create_game(
        person,
        count_kind,
        title="Pia v bot",
        players=2,
        options={},
        time_limit_days=3,
        private=False,
    )
    over = threading.Event()
    failures = []

    def run_bot():
        try:
            Bot(client, strategy("greedy")).run(until=over.is_set)
        except Exception as error:  # told to the test below
            failures.append(error)

    bot = threading.Thread(target=run_bot, daemon=True)
    bot.start()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    name, _, value = cookie_of(person).partition("=")
    context.add_cookies([{"name": name, "value": value, "url": asgi_server.url}])
    page = context.new_page()
    watch_csp(page)
    page.goto(asgi_server.url + game.get_absolute_url())
    page.fill("#invite-username", "examplebot")
    page.get_by_role("button", name="Invite").click()
    # The bot takes up the challenge; the waiting page turns into the board.
    page.wait_for_selector("header .computer-badge, .computer-badge", timeout=15000)
    assert "bot" in page.locator(".computer-badge").first.inner_text()
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        try:  # the person's turn: the board offers its actions (the bot's move swaps it in)
            page.locator("button.action").first.click(timeout=10000)
        except PlaywrightTimeout:
            continue
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert set(game.moves.values_list("seat", flat=True)) == {0, 1}  # both played
    over.set()
    # The bot looks at ``until`` on its next event: another challenge wakes it at once
    # (its stream's heartbeats are comments, which the client does not hand on).
    invites.invite(
        play.create_game(
            person,
            count_kind,
            title="Again",
            players=2,
            options={},
            time_limit_days=3,
            private=False,
        ).pk,
        person,
        "examplebot",
    )
    bot.join(20)
    assert not bot.is_alive()
    client.close()
    context.close()
    assert not failures, failures
    assert not CSP_VIOLATIONS, CSP_VIOLATIONS
