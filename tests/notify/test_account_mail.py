"""Account mail (password reset, a new address) never fails the request, and its
secret keys are readable by nobody but the recipient."""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client

from notify import outbox
from notify.models import Notification
from tests.factories import UserFactory

from .backends import RefusingBackend

pytestmark = pytest.mark.django_db

REFUSING = "tests.notify.backends.RefusingBackend"


@pytest.fixture
def refusing_smtp(settings):
    settings.EMAIL_BACKEND = REFUSING
    RefusingBackend.refusing = True
    yield
    RefusingBackend.refusing = False


def test_password_reset_with_smtp_refusing_is_no_error(
    refusing_smtp, django_capture_on_commit_callbacks
):
    UserFactory(username="dora", email="dora@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = Client().post("/accounts/password/reset/", {"email": "dora@example.com"})
    assert response.status_code == 302
    row = Notification.objects.get(address="dora@example.com")
    assert row.sent_at is None and row.attempts == 1 and "/accounts/password/reset/key/" in row.text


def test_adding_an_address_with_smtp_refusing_is_no_error(
    refusing_smtp, django_capture_on_commit_callbacks
):
    user = UserFactory(username="emil")
    client = Client()
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/accounts/email/", {"action_add": "", "email": "emil.new@example.com"}
        )
    assert response.status_code in (200, 302)
    assert Notification.objects.filter(address="emil.new@example.com", sent_at=None).exists()


def test_the_reset_key_is_not_shown_to_moderators_and_not_kept_after_sending(
    settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    UserFactory(username="fritz", email="fritz@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        Client().post("/accounts/password/reset/", {"email": "fritz@example.com"})
    [message] = mail.outbox
    key_url = re.search(r"/accounts/password/reset/key/\S+", message.body).group(0)
    row = Notification.objects.get(address="fritz@example.com")
    assert row.sent_at is not None and row.text == "" and row.html == ""
    # A row not yet sent still holds the key; the admin does not show it.
    pending = outbox.queue(
        kind="raw", address="x@example.com", dedupe_key="raw:key", subject="Reset", text=key_url
    )
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = admin.get(f"/admin/notify/notification/{pending.pk}/change/").content.decode()
    assert "Reset" in page and key_url not in page


@pytest.mark.parametrize(
    "language, hello, subject",
    [("en", "Hello from Play by Web!", "[Play by Web] "), ("de", "Play by Web", "[Play by Web] ")],
)
def test_account_mail_names_the_site(
    language, hello, subject, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    UserFactory(username="gerd", email="gerd@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        Client(HTTP_ACCEPT_LANGUAGE=language).post(
            "/accounts/password/reset/", {"email": "gerd@example.com"}
        )
    [message] = mail.outbox
    assert message.subject.startswith(subject)
    assert hello in message.body and urlsplit(settings.SITE_URL).netloc in message.body
    assert " from !" not in message.body and "using !" not in message.body


def test_german_account_mail_says_du_like_the_site(settings, django_capture_on_commit_callbacks):
    """allauth's own German catalogue says "Sie"; the site's templates say "du"."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    UserFactory(username="gerd", email="gerd@example.com")
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    with django_capture_on_commit_callbacks(execute=True):
        german.post("/accounts/password/reset/", {"email": "gerd@example.com"})
        german.post(
            "/accounts/signup/",
            {
                "email": "neu@example.com",
                "username": "neuling",
                "password1": "a-long-test-password-1",
                "password2": "a-long-test-password-1",
                "time_zone": "Europe/Berlin",
            },
        )
    reset, confirm = mail.outbox
    assert "weil du oder jemand anderes das Zurücksetzen des Passworts" in reset.body
    assert "deine E-Mail-Adresse angegeben hat" in confirm.body
    for message in (reset, confirm):
        assert "Danke, dass du auf Play by Web spielst!" in message.body
        assert not re.search(r"\b(Sie|Ihr|Ihre|Ihnen)\b", message.body), message.body
