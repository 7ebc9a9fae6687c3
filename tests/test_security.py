"""Security headers and cookies, and templates that a strict CSP can serve."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = [
    p
    for folder in ("templates", "siam/templates", "tal/templates", "games", "accounts")
    for p in (ROOT / folder).rglob("*.html")
]


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in directives["style-src"]


def test_templates_have_no_inline_script_or_handlers():
    assert TEMPLATES
    for path in TEMPLATES:
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"\s(on[a-z]+|hx-on[:a-z-]*)\s*=", text), path
        assert "javascript:" not in text, path
        assert "<style" not in text, path


@pytest.mark.django_db
def test_the_language_cookie_is_http_only_and_same_site(client):
    response = client.post("/language/", {"language": "de", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


@pytest.mark.django_db
def test_the_settings_page_sets_the_language_cookie_with_the_same_flags(client):
    from accounts.forms import SettingsForm
    from tests.factories import UserFactory

    user = UserFactory()
    client.force_login(user)
    form = SettingsForm(instance=user)
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: v for k, v in data.items() if v is not False}
    data["language"] = "de"
    response = client.post("/settings/", data)
    assert response.status_code == 302
    cookie = response.cookies["django_language"]
    assert cookie.value == "de" and cookie["httponly"] and cookie["samesite"] == "Lax"


def test_production_sets_secure_cookies():
    import subprocess
    import sys

    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.LANGUAGE_COOKIE_SECURE, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    env = {
        "DEBUG": "0",
        "SECRET_KEY": "x" * 60,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PATH": "/usr/bin:/bin",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["True", "True", "True"]


@pytest.mark.django_db
def test_the_proxy_count_decides_which_address_is_rate_limited(rf, settings):
    from allauth.core.internal.httpkit import get_client_ip

    request = rf.get("/", HTTP_X_FORWARDED_FOR="203.0.113.9, 10.0.0.2", REMOTE_ADDR="10.0.0.1")
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    assert get_client_ip(request) == "10.0.0.1"
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 2
    assert get_client_ip(request) == "203.0.113.9"


@pytest.mark.django_db
def test_pages_are_sent_without_the_templates_indentation(client):
    body = client.get("/").content
    assert body.startswith(b"<!DOCTYPE html>") and b"</html>" in body
    assert not re.search(rb">[ \t]*\n\s*\n\s*<|>\n[ \t]+<", body)
    assert int(client.get("/")["Content-Length"]) == len(body)
