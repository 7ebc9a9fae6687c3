"""In the browser: the time zone comes from the browser, the invite link copies, and
the lobby and sign-up pages pass axe at phone and desktop widths."""

import pytest
from django.conf import settings
from django.test import Client

from games import play, registry
from tests.factories import UserFactory

from .conftest import CSP_VIOLATIONS, check_axe, watch_csp

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _context(browser, live_server, user=None, width=1280, zone="Asia/Tokyo", **extra):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, timezone_id=zone, **extra
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
    page = context.new_page()
    watch_csp(page)
    return context, page


@pytest.mark.parametrize("width", [375, 1280])
def test_sign_up_preselects_the_browser_time_zone(browser, live_server, width):
    context, page = _context(browser, live_server, width=width)
    try:
        page.goto(f"{live_server.url}/accounts/signup/")
        assert page.locator("select[name=time_zone]").input_value() == "Asia/Tokyo"
        check_axe(page, f"sign-up at {width} px")
        page.goto(f"{live_server.url}/")
        check_axe(page, f"lobby at {width} px")
    finally:
        context.close()
    assert not CSP_VIOLATIONS, CSP_VIOLATIONS


def test_settings_offer_the_browser_zone_but_keep_the_saved_one(browser, live_server):
    """The browser (Asia/Tokyo) is pointed out beside the saved zone, even UTC, which
    may be a choice; one click puts it in the field, and saving stores it."""
    for user in (UserFactory(time_zone="UTC"), UserFactory(time_zone="Europe/Berlin")):
        context, page = _context(browser, live_server, user)
        try:
            page.goto(f"{live_server.url}/settings/")
            field = page.locator("select[name=time_zone]")
            assert field.input_value() == user.time_zone
            hint = page.locator("[data-zone-hint]")
            assert hint.is_visible() and "Asia/Tokyo" in hint.inner_text()
            check_axe(page, "settings with the time-zone hint")
            page.locator("[data-use-zone]").click()
            assert field.input_value() == "Asia/Tokyo" and not hint.is_visible()
            page.locator("form.stacked button", has_text="Save").click()
            page.wait_for_load_state()
            user.refresh_from_db()
            assert user.time_zone == "Asia/Tokyo"
            page.goto(f"{live_server.url}/settings/")
            assert not page.locator("[data-zone-hint]").is_visible()
        finally:
            context.close()
        assert not CSP_VIOLATIONS, CSP_VIOLATIONS


def test_invite_link_copy_button_copies_the_link(browser, live_server):
    host = UserFactory()
    game = play.create_game(
        host,
        registry.get("siam"),
        title="Private",
        players=2,
        options={},
        time_limit_days=3,
        private=True,
    )
    context, page = _context(
        browser, live_server, host, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        link = page.locator("#invite").input_value()
        assert "/invite/" in link
        page.get_by_role("button", name="Copy link").click()
        page.get_by_role("button", name="Copied").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == link
    finally:
        context.close()
    assert not CSP_VIOLATIONS, CSP_VIOLATIONS
