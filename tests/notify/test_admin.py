import pytest
from django.core import mail
from django.test import Client

from notify.models import Notification
from tests.factories import UserFactory

from .backends import RefusingBackend

pytestmark = pytest.mark.django_db


def test_admin_lists_failed_mail_and_retries_it_now(settings):
    settings.EMAIL_BACKEND = "tests.notify.backends.RefusingBackend"
    RefusingBackend.refusing = True
    from notify import delivery, outbox

    row = outbox.queue(kind="raw", address="x@example.com", dedupe_key="raw:x", subject="Hello")
    assert delivery.deliver(row.pk) == "failed"
    admin = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/notify/notification/?state=retrying").content.decode()
    assert "x@example.com" in listing
    assert (
        "x@example.com" not in client.get("/admin/notify/notification/?state=sent").content.decode()
    )
    RefusingBackend.refusing = False
    client.post(
        "/admin/notify/notification/",
        {"action": "retry_now", "_selected_action": [row.pk]},
    )
    assert [m.subject for m in mail.outbox] == ["Hello"]
    assert Notification.objects.get(pk=row.pk).sent_at is not None
    assert client.get(f"/admin/notify/notification/{row.pk}/change/").status_code == 200
