"""What a player is told of a moderator's decision against them: why they are banned,
why (and until when) they may not chat. Read by the sign-in page, the game page, the
chat's refusal and the mail."""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import AuditEntry, ChatBan


def ban_reason(user) -> str:
    """The reason of the ban in force on ``user`` (the latest ban not lifted since)."""
    if user.is_active:
        return ""
    entry = (
        AuditEntry.objects.filter(
            target_user=user, action__in=[AuditEntry.Action.BAN, AuditEntry.Action.UNBAN]
        )
        .order_by("-created_at", "-pk")
        .first()
    )
    return entry.reason if entry and entry.action == AuditEntry.Action.BAN else ""


def chat_ban(user) -> ChatBan | None:
    """The chat mute in force on ``user``, if any."""
    if not user.is_authenticated:
        return None
    return ChatBan.objects.filter(user=user, until__gt=timezone.now()).first()


def chat_refusal(user, game=None, **facts) -> str | None:
    """The frame's "chat" guard (``games.extend``): why ``user`` may not write."""
    ban = chat_ban(user)
    if ban is None:
        return None
    return _(
        "A moderator has muted you in chat until %(until)s. The moderator's reason: %(reason)s"
    ) % {
        "until": date_format(timezone.localtime(ban.until), "DATETIME_FORMAT"),
        "reason": ban.reason,
    }
