"""An e-mail backend whose SMTP server refuses until a test lets it work."""

import smtplib

from django.core.mail.backends.locmem import EmailBackend


class RefusingBackend(EmailBackend):
    refusing = True

    def send_messages(self, messages):
        if RefusingBackend.refusing:
            raise smtplib.SMTPException("421 service not available")
        return super().send_messages(messages)
