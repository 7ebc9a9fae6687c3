"""The account pages (allauth's templates and forms) speak the site's German.

allauth's own German catalogue writes "Email-Adresse" and, on some pages,
"Sie"; the site writes "E-Mail-Adresse" and "du". accounts/allauth_words.py
lists allauth's words so that the site's catalogue translates them.
"""

import ast
import gettext
import re
from html.parser import HTMLParser
from pathlib import Path

import allauth
import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

WORDS = Path(settings.BASE_DIR) / "accounts" / "allauth_words.py"
SITE_MO = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.mo"
ALLAUTH_MO = Path(allauth.__file__).parent / "locale" / "de" / "LC_MESSAGES" / "django.mo"
# "Email" as a word ("Email-Adresse", "Email ändern"; "E-Mail" is the site's),
# allauth's "Anmeldename" (the site says "Benutzername") and the formal address.
WRONG = re.compile(r"\b(Email|Anmeldename|Sie|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres|Ihnen)\b")
PASSWORD = "a-long-test-password"


class _Text(HTMLParser):
    """What a reader sees and hears: text, labels of controls, placeholders."""

    def __init__(self):
        super().__init__()
        self.pieces: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        values = dict(attrs)
        for name in ("title", "aria-label", "placeholder", "alt"):
            if values.get(name):
                self.pieces.append(values[name])
        if tag in ("input", "button") and values.get("type") in ("submit", "button"):
            self.pieces.append(values.get("value") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.pieces.append(" ".join(data.split()))


def _wrong_words(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    parser = _Text()
    parser.feed(response.content.decode())
    return [piece for piece in parser.pieces if WRONG.search(piece)]


def _german() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="de")


def _visits(django_capture_on_commit_callbacks) -> dict:
    """The account pages, their form errors and their messages, by what they show."""
    pages = {}
    UserFactory(username="dora", language="de")
    visitor = _german()
    pages["sign-up"] = visitor.get("/accounts/signup/")
    pages["sign-up errors"] = visitor.post(
        "/accounts/signup/",
        {"email": "x", "username": "a b", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    pages["sign-in"] = visitor.get("/accounts/login/")
    pages["sign-in error"] = visitor.post("/accounts/login/", {"login": "dora", "password": "no"})
    pages["sign-in error by address"] = visitor.post(
        "/accounts/login/", {"login": "dora@example.com", "password": "no"}
    )
    pages["password reset"] = visitor.get("/accounts/password/reset/")
    pages["bad reset link"] = visitor.get("/accounts/password/reset/key/1-bad/")
    pages["bad confirmation link"] = visitor.get("/accounts/confirm-email/bad/")
    with django_capture_on_commit_callbacks(execute=True):
        pages["reset sent"] = visitor.post(
            "/accounts/password/reset/", {"email": "dora@example.com"}, follow=True
        )
        pages["signed up"] = visitor.post(
            "/accounts/signup/",
            {
                "email": "nina@example.com",
                "username": "nina",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
            follow=True,
        )
    [reset] = [m for m in mail.outbox if "/password/reset/key/" in m.body]
    reset_url = re.search(r"/accounts/password/reset/key/\S+", reset.body).group(0)
    pages["new password"] = visitor.get(reset_url, follow=True)
    [confirm] = [m for m in mail.outbox if "/confirm-email/" in m.body]
    confirm_url = re.search(r"/accounts/confirm-email/\S+/", confirm.body).group(0)
    pages["confirm address"] = visitor.get(confirm_url)
    pages["address confirmed, signed in"] = visitor.post(confirm_url, follow=True)

    player = _german()
    pages["signed in"] = player.post(
        "/accounts/login/", {"login": "dora", "password": PASSWORD}, follow=True
    )
    pages["e-mail"] = player.get("/accounts/email/")
    with django_capture_on_commit_callbacks(execute=True):
        pages["e-mail change asked"] = player.post(
            "/accounts/email/", {"action_add": "", "email": "dora.neu@example.com"}, follow=True
        )
    pages["e-mail change cancelled"] = player.post(
        "/accounts/email/", {"action_remove": "", "email": "dora.neu@example.com"}, follow=True
    )
    pages["password change"] = player.get("/accounts/password/change/")
    pages["password change errors"] = player.post(
        "/accounts/password/change/",
        {"oldpassword": "no", "password1": PASSWORD + "1", "password2": PASSWORD + "2"},
    )
    pages["reauthentication"] = player.get("/accounts/reauthenticate/")
    pages["sign-out"] = player.get("/accounts/logout/")
    pages["signed out"] = player.post("/accounts/logout/", follow=True)
    return pages


def test_german_account_pages_say_e_mail_and_du(django_capture_on_commit_callbacks, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    pages = _visits(django_capture_on_commit_callbacks)
    text = {what: response.content.decode() for what, response in pages.items()}
    assert "Benutzername oder E-Mail-Adresse" in text["sign-in"]
    assert "Du musst zweimal dasselbe Passwort eingeben." in text["sign-up errors"]
    assert "Du bist als dora angemeldet." in text["signed in"]
    assert "E-Mail-Adresse ändern" in text["e-mail"]
    assert "Gib dein Passwort ein:" in text["reauthentication"]
    wrong = {}
    for what, response in pages.items():
        found = _wrong_words(response)
        if found:
            wrong[what] = found
    for message in mail.outbox:
        if WRONG.search(message.subject):
            wrong[f"mail {message.subject}"] = [message.subject]
    assert len(mail.outbox) == 3  # reset link, confirmation link, changed address
    assert not wrong, "\n".join(f"{what}: {found}" for what, found in wrong.items())


def test_the_check_finds_allauths_own_german(client, settings):
    settings.LOCALE_PATHS = []  # allauth's catalogue as it is, without the site's words
    client.force_login(UserFactory(language="de"))
    email_page = " ".join(_wrong_words(client.get("/accounts/email/")))
    assert "Email-Adresse" in email_page
    assert re.search(r"\bSie\b", " ".join(_wrong_words(client.get("/accounts/reauthenticate/"))))
    assert not WRONG.search("E-Mail-Adresse") and not WRONG.search("Wenn sie nicht ankommt")


def _words() -> list[str]:
    """The catalogue keys of accounts/allauth_words.py ("context\\x04msgid" with a context)."""
    keys = []
    for node in ast.walk(ast.parse(WORDS.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
            "gettext_noop",
            "pgettext_lazy",
        ):
            texts = [argument.value for argument in node.args]
            keys.append("\x04".join(texts))
    return keys


def _catalogue(mo: Path) -> dict:
    with mo.open("rb") as handle:
        return gettext.GNUTranslations(handle)._catalog


def test_allauth_words_are_allauths_msgids_with_the_sites_german():
    allauth_german, site_german = _catalogue(ALLAUTH_MO), _catalogue(SITE_MO)
    keys = _words()
    assert len(keys) > 50 and "field label\x04Login" in keys
    assert not [key for key in keys if key not in allauth_german], "not allauth's msgids"
    assert not [key for key in keys if not site_german.get(key)], "not in the site's catalogue"
    assert not [key for key in keys if WRONG.search(site_german[key])]
