"""Without SENTRY_DSN, an error with DEBUG off is mailed to ADMINS (Django's own mail)."""

import pytest
from django.core import mail
from django.test import Client

from ops.errors import admins
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_admins_are_read_from_their_variable():
    assert admins(["Ann Ops <ann@example.org>", "bo@example.org"]) == [
        ("Ann Ops", "ann@example.org"),
        ("bo@example.org", "bo@example.org"),
    ]
    with pytest.raises(ValueError):
        admins(["just a name"])


def test_an_error_is_mailed_to_admins_when_debug_is_off(settings):
    settings.ROOT_URLCONF = "tests.ops.urls"
    settings.DEBUG = False
    settings.ADMINS = admins(["Ann Ops <ann@example.org>"])
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory())
    assert client.get("/test-failure").status_code == 500
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert "forced failure" in mail.outbox[0].subject + mail.outbox[0].body
