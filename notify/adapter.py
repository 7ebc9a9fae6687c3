"""Account e-mail (sign-up, verification, password reset) goes through the outbox too.

The message is rendered now and stored as a raw row, so an SMTP server that
refuses never fails the sign-up request: the row is retried later.
"""

import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _

from moderation.sanctions import ban_reason

from . import outbox
from .models import Notification


@dataclass
class SiteName:
    """What allauth's mails call ``current_site``: this site's name and address
    (without django.contrib.sites they would get the request's host, or nothing)."""

    name: str
    domain: str


def site_name() -> SiteName:
    return SiteName(name=_("Play by Web"), domain=urlsplit(settings.SITE_URL).netloc)


class OutboxAccountAdapter(DefaultAccountAdapter):
    def respond_user_inactive(self, request, user):
        """A banned player who gives the right password learns the moderator's reason
        (DSA Art. 17); allauth reaches here only after the password matched."""
        context = {"ban_reason": ban_reason(user), "contact": settings.OPERATOR_EMAIL}
        return render(request, "account/account_inactive.html", context, status=403)

    def format_email_subject(self, subject: str) -> str:
        return f"[{site_name().name}] {subject}"

    def send_mail(self, template_prefix, email, context):
        context = {
            "request": allauth_context.request,
            "email": email,
            "current_site": site_name(),
            **context,
        }
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
