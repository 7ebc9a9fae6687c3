"""The account adapter: allauth's, with the outbox's mail (``notify.adapter``) and
sign-in limits that cannot lock the owner out (``accounts.signin_limits``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from notify import outbox
from notify.adapter import OutboxAccountAdapter, site_name
from notify.models import Notification

from . import signin_limits


class AccountAdapter(OutboxAccountAdapter):
    def pre_authenticate(self, request, **credentials: Any) -> None:
        login = credentials.get("email", credentials.get("username", "")) or ""
        self._signin_user = signin_limits.find_user(login)
        try:
            attempt = signin_limits.begin(request, login, self._signin_user)
        except signin_limits.Refused:
            raise self.validation_error("too_many_login_attempts") from None
        self._signin_attempt = attempt
        # allauth takes back "_login_failed_rl_usage" when the password is right.
        self._login_failed_rl_usage = attempt

    def authentication_failed(self, request, **credentials: Any) -> None:
        attempt = getattr(self, "_signin_attempt", None)
        if attempt is None:
            return
        count = signin_limits.count_failure(attempt.account)
        started = signin_limits.note_burst(attempt.account, count)
        user = self._signin_user
        if started is not None and user is not None and user.email:
            self.send_burst_mail(user, started)

    def send_burst_mail(self, user, started: int) -> None:
        """Tell the owner, once per burst (the key names it), in their language."""
        with translation.override(user.language or settings.LANGUAGE_CODE):
            context = {
                "user": user,
                "current_site": site_name(),
                "failures": settings.SIGNIN_BURST_FAILURES,
                "minutes": settings.SIGNIN_BURST_MINUTES,
                "password_url": settings.SITE_URL + reverse("account_change_password"),
                "reset_url": settings.SITE_URL + reverse("account_reset_password"),
            }
            message = self.render_mail("account/email/signin_burst", user.email, context)
        outbox.queue(
            kind=Notification.Kind.RAW,
            address=user.email,
            user=user,
            subject=message.subject,
            text=message.body,
            dedupe_key=f"signin_burst:{user.pk}:{started}",
        )
