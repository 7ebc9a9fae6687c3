"""The imprint and the privacy notice: in both languages, linked from every page and
from the sign-up form, with the operator and the periods from settings."""

import re

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from tests.factories import UserFactory
from tests.games.test_routes import other_routes

pytestmark = pytest.mark.django_db

OPERATOR = {
    "OPERATOR_NAME": "Brettspielverein Nordlicht e. V.",
    "OPERATOR_ADDRESS": "Hafenstraße 7|24103 Kiel",
    "OPERATOR_EMAIL": "datenschutz@nordlicht.example",
    "HOSTING_PROVIDER": "Serverhaus Beispiel GmbH\\nRechenweg 1, 90402 Nürnberg",
    "MAIL_PROVIDER": "Postbote Beispiel AG",
}


@pytest.fixture
def operator(settings):
    for name, value in OPERATOR.items():
        setattr(settings, name, value)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("path", ["/privacy/", "/imprint/"])
def test_both_pages_answer_in_both_languages(client, operator, path, language):
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200
    body = response.content.decode()
    assert f'<html lang="{language}">' in body
    heading = {
        ("/privacy/", "en"): "Privacy notice",
        ("/privacy/", "de"): "Datenschutzerklärung",
        ("/imprint/", "en"): "Imprint",
        ("/imprint/", "de"): "Impressum",
    }[path, language]
    assert f"<h1>{heading}</h1>" in body
    # The operator from settings, the address cut into its lines.
    assert "Brettspielverein Nordlicht e. V." in body
    assert "Hafenstraße 7<br>24103 Kiel" in body
    assert "mailto:datenschutz@nordlicht.example" in body


def test_the_notice_follows_the_players_own_language(client, operator):
    client.force_login(UserFactory(language="de"))
    body = client.get("/privacy/", headers={"Accept-Language": "en"}).content.decode()
    assert "Verantwortlicher" in body and "Who is responsible" not in body


def test_the_notice_names_the_hosting_and_mail_providers(client, operator):
    body = client.get("/privacy/").content.decode()
    assert "Serverhaus Beispiel GmbH<br>Rechenweg 1, 90402 Nürnberg" in body
    assert "Postbote Beispiel AG" in body


def test_the_imprint_names_optional_entries_only_when_set(client, operator, settings):
    body = client.get("/imprint/").content.decode()
    assert "VAT" not in body and "Phone" not in body
    settings.OPERATOR_VAT_ID = "DE123456789"
    settings.OPERATOR_PHONE = "+49 431 000000"
    settings.OPERATOR_REGISTER = "Amtsgericht Kiel, VR 4711"
    settings.CONTENT_RESPONSIBLE = "Erika Mustermann|Hafenstraße 7|24103 Kiel"
    body = client.get("/imprint/").content.decode()
    for text in ("DE123456789", "+49 431 000000", "Amtsgericht Kiel, VR 4711"):
        assert text in body
    assert "Erika Mustermann<br>Hafenstraße 7<br>24103 Kiel" in body


PERIOD = re.compile(r'<span data-period="(\w+)">(\d+)</span>')


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_period_the_notice_names_is_the_one_in_settings(client, settings, language):
    settings.RETAIN_UNVERIFIED_DAYS = 17
    settings.RETAIN_SENT_DAYS = 43
    settings.RETAIN_ADDRESS_MINUTES = 9
    settings.SESSION_COOKIE_AGE = 23 * 24 * 60 * 60
    body = client.get("/privacy/", headers={"Accept-Language": language}).content.decode()
    named = PERIOD.findall(body)
    expected = {
        "unverified_days": "17",
        "sent_days": "43",
        "address_minutes": "9",
        "session_days": "23",
    }
    assert {name for name, _ in named} == set(expected)
    for name, value in named:
        assert value == expected[name], name
    # No period written into the text by hand beside them.
    prose = PERIOD.sub("", body)
    unit = r"(days?|minutes?|Tagen?|Minuten)"
    assert not re.search(rf"\b\d+\s+{unit}\b", prose), re.findall(rf"\b\d+\s+{unit}", prose)


def test_the_notice_says_which_cookies_and_where_to_delete_and_download(client):
    body = client.get("/privacy/").content.decode()
    for cookie in ("sessionid", "csrftoken", "django_language"):
        assert f"<code>{cookie}</code>" in body
    assert 'href="/settings/"' in body
    for right in ("15", "16", "17", "20", "21", "77"):
        assert f"Art.&nbsp;{right}" in body


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_links_both(client, signed_in):
    if signed_in:
        client.force_login(UserFactory())
    pages = 0
    for route in [*other_routes(), "accounts/login/", "accounts/signup/", "no-such-page/"]:
        response = client.get("/" + route)
        body = response.content.decode()
        if "<html" not in body:
            continue  # a partial, a redirect, a feed: no page of its own
        pages += 1
        assert 'href="/privacy/"' in body and 'href="/imprint/"' in body, route
    assert pages > 8


def test_the_sign_up_form_links_the_privacy_notice(client):
    body = client.get("/accounts/signup/", headers={"Accept-Language": "de"}).content.decode()
    form_end = body.index("</form>", body.index('action="/accounts/signup/"'))
    notice = body.index('<p class="signup-privacy">')
    assert notice > form_end
    assert 'href="/privacy/"' in body[notice : body.index("</p>", notice)]
    assert "Datenschutzerklärung" in body[notice:]


def test_the_new_pages_are_in_the_outsider_walks():
    assert {"privacy/", "imprint/"} <= set(other_routes())


@pytest.mark.parametrize("path", ["/privacy/", "/imprint/"])
def test_anything_but_reading_them_is_refused_cleanly(client, path):
    for method in ("post", "put", "delete"):
        assert getattr(client, method)(path, {"x": "\x00junk"}).status_code == 405
    assert client.head(path).status_code == 200


def test_the_deploy_check_warns_while_the_operator_is_unnamed(settings):
    settings.DEBUG = False
    with pytest.raises(SystemCheckError, match="OPERATOR_NAME is empty"):
        call_command("check", "--deploy", "--tag", "privacy", "--fail-level", "WARNING")
    for name, value in OPERATOR.items():
        setattr(settings, name, value)
    call_command("check", "--deploy", "--tag", "privacy", "--fail-level", "WARNING")


def test_a_development_site_needs_no_operator(settings):
    settings.DEBUG = True
    call_command("check", "--deploy", "--tag", "privacy", "--fail-level", "WARNING")


def test_no_client_address_outlives_the_period_the_notice_names(settings):
    settings.RETAIN_ADDRESS_MINUTES = 10
    call_command("check", "--tag", "privacy", "--fail-level", "WARNING")
    # allauth's sign-in limit counts failures per address for a minute: shorter than
    # one minute allowed, it is too long, and the check says so.
    settings.RETAIN_ADDRESS_MINUTES = 0
    with pytest.raises(SystemCheckError, match="rate limit login_failed"):
        call_command("check", "--tag", "privacy", "--fail-level", "WARNING")
