"""Account e-mail (sign-up, verification, password reset) goes through the outbox too.

The message is rendered now and stored as a raw row, so an SMTP server that
refuses never fails the sign-up request: the row is retried later.
"""

import uuid

from allauth.account.adapter import DefaultAccountAdapter

from . import outbox
from .models import Notification


class OutboxAccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix, email, context):
        message = self.render_mail(template_prefix, email, context)
        html = next(
            (c for c, kind in getattr(message, "alternatives", []) if kind == "text/html"), ""
        )
        text = message.body
        if message.content_subtype == "html":
            text, html = "", message.body
        user = context.get("user")
        outbox.queue(
            kind=Notification.Kind.RAW,
            address=email,
            user=user if getattr(user, "pk", None) else None,
            subject=message.subject,
            text=text,
            html=html,
            dedupe_key=f"raw:{uuid.uuid4()}",
        )
