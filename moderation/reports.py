"""Players report chat messages and players; moderators read the queue in the admin."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ChatMessage

from .models import ChatMute, Report

REASON_MAX_LENGTH = 1000


class ReportError(Exception):
    pass


def file_report(reporter, reported, reason: str, message: ChatMessage | None = None) -> Report:
    """Queue a report; at most ``REPORTS_PER_DAY`` per reporter in any 24 hours."""
    reason = (reason or "").strip()
    if not reason:
        raise ReportError(_("Please say what is wrong."))
    if len(reason) > REASON_MAX_LENGTH:
        raise ReportError(
            _("A report can be at most %(n)d characters long.") % {"n": REASON_MAX_LENGTH}
        )
    if reported.pk == reporter.pk:
        raise ReportError(_("You cannot report yourself."))
    with transaction.atomic():
        # The lock on the reporter's row makes the count and the insert one
        # step, so parallel requests cannot slip past the limit.
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
        since = timezone.now() - timedelta(days=1)
        if Report.objects.filter(reporter=reporter, created_at__gt=since).count() >= (
            settings.REPORTS_PER_DAY
        ):
            raise ReportError(
                _("You have sent many reports today. Please wait a day before the next one.")
            )
        return Report.objects.create(
            reporter=reporter,
            reported=reported,
            message=message,
            game=message.game if message else None,
            quoted=message.text if message else "",
            reason=reason,
        )


def muted_ids(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def set_muted(user, other, muted: bool) -> None:
    if other.pk == user.pk:
        raise ReportError(_("You cannot mute yourself."))
    if muted:
        ChatMute.objects.get_or_create(user=user, muted=other)
    else:
        ChatMute.objects.filter(user=user, muted=other).delete()
