"""Staff see a banner on every page (the site's and the admin's) while the worker or
beat has not been seen for HEARTBEAT_STALE_SECONDS or the outbox is late; players never."""

import datetime

import pytest
from django.utils import timezone

from notify.models import Notification
from ops import banner
from tests.factories import UserFactory

from .conftest import set_back

pytestmark = pytest.mark.django_db

WARNING = "The Celery worker has not been seen for"


@pytest.fixture
def staff(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def test_staff_see_the_banner_on_site_pages_and_in_the_admin(client, alive, staff, started):
    set_back("worker", 5 * 60)
    client.force_login(staff)
    for path in ("/", f"/g/{started[0].pk}/", "/admin/"):
        body = client.get(path).content.decode()
        assert WARNING in body and "5 minutes" in body, path
    assert "Celery beat" not in client.get("/").content.decode()


def test_players_never_see_it(client, alive, started):
    set_back("worker", 5 * 60)
    client.force_login(started[1])
    for path in ("/", f"/g/{started[0].pk}/"):
        assert "staff-banner" not in client.get(path).content.decode()
    client.logout()
    assert "staff-banner" not in client.get("/").content.decode()


def test_no_banner_while_all_is_well(client, alive, staff):
    client.force_login(staff)
    assert "staff-banner" not in client.get("/").content.decode()


def test_a_late_outbox_and_a_silent_beat_are_named(client, alive, staff, settings):
    settings.OUTBOX_STALE_SECONDS = 600
    set_back("beat", 3 * 60)
    Notification.objects.create(
        kind="raw", address="x@example.com", dedupe_key="late",
        due_at=timezone.now() - datetime.timedelta(minutes=12),
    )  # fmt: skip
    client.force_login(staff)
    body = client.get("/admin/").content.decode()
    assert "Celery beat has not been seen for 3 minutes" in body
    assert "The oldest due message of the outbox (email) has waited 12 minutes" in body
    assert WARNING not in body


def test_the_banner_is_kept_briefly_not_asked_on_every_page(client, alive, staff):
    client.force_login(staff)
    client.get("/admin/")  # reads it once
    set_back("worker", 5 * 60)
    assert WARNING not in client.get("/admin/").content.decode()  # still the kept answer
    banner.forget()  # as after BANNER_CACHE_SECONDS
    assert WARNING in client.get("/admin/").content.decode()


def test_the_admin_shows_the_version(client, staff):
    client.force_login(staff)
    assert "1.0.0" in client.get("/admin/").content.decode()
