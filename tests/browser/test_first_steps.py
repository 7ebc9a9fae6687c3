"""A new player's first steps, in Chromium (issue 45): the page after signing up says
what to do when the email does not come (with or without a contact address), and "My
games" of a player with no game points to the first-game walkthroughs."""

import pytest
from django.core import mail
from django.core.cache import cache

from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password"


def sign_up(page, live_server, name):
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/accounts/confirm-email/")


def test_without_a_contact_address_the_help_is_something_to_do(browser, live_server, settings):
    settings.CONTACT_EMAIL = ""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_up(page, live_server, "nina")
    text = page.locator("main").inner_text()

    assert "contact us" not in text.lower()
    assert "Sign in with your username and password: we send the email again." in text
    assert len(mail.outbox) == 1
    # And it does: signing in before confirming sends the email again, once allauth's
    # cool-down (three minutes, kept in the cache) has passed.
    cache.clear()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "nina")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/accounts/confirm-email/")
    assert len(mail.outbox) == 2
    page.context.close()


def test_with_a_contact_address_the_help_names_it(browser, live_server, settings):
    settings.CONTACT_EMAIL = "help@example.org"
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_up(page, live_server, "omar")

    link = page.locator(".verification-help a")
    assert link.inner_text() == "help@example.org"
    assert link.get_attribute("href") == "mailto:help@example.org"
    page.context.close()


def test_my_games_of_a_new_player_offers_the_first_games(login, live_server):
    newcomer = UserFactory()
    page = login(newcomer, width=390, height=844)
    page.goto(f"{live_server.url}/my/")
    assert page.get_by_role("button", name="First game of King of Siam").is_visible()
    assert page.get_by_role("button", name="First game of Tal der Könige").is_visible()

    player = UserFactory()
    running_game("siam", [player, UserFactory()], {"map": "siam"})
    page = login(player, width=390, height=844)
    page.goto(f"{live_server.url}/my/")
    assert page.locator(".first-games").count() == 0
