"""Time zones: a list of real places, and the browser's zone preselected."""

import re
import zoneinfo
from pathlib import Path

import pytest
from django.conf import settings

from accounts import time_zones
from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_list_has_canonical_zones_and_no_aliases():
    zones = time_zones.canonical()
    assert zones[0] == "UTC"
    for wanted in ("Europe/Berlin", "America/New_York", "Asia/Kolkata", "Europe/Kyiv"):
        assert wanted in zones
    for alias in ("localtime", "US/Eastern", "Etc/GMT+5", "GMT", "Asia/Calcutta", "Europe/Kiev"):
        assert alias not in zones
    assert set(zones) <= zoneinfo.available_timezones()
    assert 300 < len(zones) < len(zoneinfo.available_timezones()) - 100


def _options(html: str) -> list[str]:
    select = re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]+)"', select)


def test_settings_offer_the_curated_list_and_the_browser_zone_only_as_a_hint(client):
    client.force_login(UserFactory())
    html = client.get("/settings/").content.decode()
    assert _options(html) == time_zones.canonical()
    # UTC may be a choice: the browser's zone is offered (site.js), never put in unasked.
    assert "data-browser-time-zone" not in html and "data-zone-hint hidden" in html


def test_an_old_alias_choice_is_kept_not_silently_replaced(client):
    user = UserFactory(time_zone="US/Eastern")
    client.force_login(user)
    html = client.get("/settings/").content.decode()
    assert _options(html)[0] == "US/Eastern"
    assert '<option value="US/Eastern" selected>' in html


def test_sign_up_stores_the_time_zone_the_browser_filled_in(client):
    html = client.get("/accounts/signup/").content.decode()
    assert 'name="time_zone"' in html and 'data-browser-time-zone="UTC"' in html
    response = client.post(
        "/accounts/signup/",
        {
            "email": "new@example.com",
            "username": "newcomer",
            "password1": "a-long-test-password-1",
            "password2": "a-long-test-password-1",
            "time_zone": "Europe/Berlin",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get(username="newcomer").time_zone == "Europe/Berlin"


def test_sign_up_refuses_an_alias(client):
    response = client.post(
        "/accounts/signup/",
        {
            "email": "new@example.com",
            "username": "newcomer",
            "password1": "a-long-test-password-1",
            "password2": "a-long-test-password-1",
            "time_zone": "localtime",
        },
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="newcomer").exists()


def test_sign_up_page_keeps_the_password_rules_out_of_a_paragraph(client):
    html = client.get("/accounts/signup/").content.decode()
    assert "<ul>" in html  # the password rules are a list
    for paragraph in re.findall(r"<p\b[^>]*>.*?</p>", html, re.S):
        assert "<ul" not in paragraph and "<div" not in paragraph


def test_site_js_fills_the_browser_zone_only_over_the_default():
    script = (Path(settings.BASE_DIR) / "static" / "js" / "site.js").read_text()
    assert "Intl.DateTimeFormat().resolvedOptions().timeZone" in script
    assert "field.value !== field.dataset.browserTimeZone" in script
