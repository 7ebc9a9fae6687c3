"""An e-mail backend whose SMTP server refuses until a test lets it work."""

import smtplib

from django.core.mail.backends.locmem import EmailBackend


class RefusingBackend(EmailBackend):
    refusing = True

    def send_messages(self, messages):
        if RefusingBackend.refusing:
            raise smtplib.SMTPException("421 service not available")
        return super().send_messages(messages)


class MarkCheckingBackend(EmailBackend):
    """Notes, for each message as the SMTP conversation would begin, what the outbox
    row says about it (read back from the database by its Message-ID)."""

    seen: list[dict] = []

    def send_messages(self, messages):
        from notify.models import Notification

        for message in messages:
            delivery = message.extra_headers["Message-ID"].strip("<>").split("@")[0]
            row = Notification.objects.get(delivery_id=delivery)
            MarkCheckingBackend.seen.append({"pk": row.pk, "sending_at": row.sending_at})
        return super().send_messages(messages)
