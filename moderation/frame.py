"""What moderation adds to the frame's pages (``games.extend``): a player never reads
the chat of someone they muted, and each chat line by another player offers to report
it or to mute its author."""

from __future__ import annotations

from django.utils import timezone

from games import extend
from games.facts import fact

from . import sanctions
from .models import AuditEntry, ChatBan, ChatMute
from .reports import muted_ids


def without_muted(lines, viewer):
    """The chat lines ``viewer`` reads: none from a player they muted."""
    muted = muted_ids(viewer)
    return lines.exclude(user_id__in=muted) if muted else lines


def register() -> None:
    mutes = ChatMute._meta.db_table
    # Mutes are only ever added or lifted (deleted): count and highest id cover them.
    extend.add_key_part(f"(SELECT COUNT(*) FROM {mutes} WHERE user_id = %(user)s)")
    extend.add_key_part(f"(SELECT MAX(id) FROM {mutes} WHERE user_id = %(user)s)")
    extend.add_chat_filter(without_muted)
    extend.add_part("chat-line", "moderation/_chat_line.html")
    extend.set_audit_trail(_record)
    # A moderator's chat mute: refused when the player writes, told on their game pages.
    extend.add_guard("chat", sanctions.chat_refusal)
    bans = ChatBan._meta.db_table
    extend.add_key_part(
        f"(SELECT MAX(id) FROM {bans} WHERE user_id = %(user)s AND until > %(moderation_now)s)",
        _now,
        name="moderation.chat_ban",
    )
    extend.add_part("game-header", "moderation/_chat_ban.html", _chat_ban)


def _now() -> dict:
    return {"moderation_now": timezone.now()}


def _chat_ban(context):
    """The viewer's chat mute in force, for the notice at the top of their game pages."""
    if fact(context, "moderation.chat_ban") is None:
        return None
    ban = sanctions.chat_ban(context["user"])
    return {"chat_ban": ban} if ban else None


def _record(moderator, action: str, reason: str, *, user=None, game=None, target=""):
    """An entry in the audit trail for what a moderator did through another app
    (``games.extend.audit_trail``): a tournament entrant removed, ..."""
    if action not in AuditEntry.Action.values:
        raise ValueError(f"no audit action {action!r}")
    if not (reason or "").strip():
        raise ValueError("a moderator's action needs a reason")
    return AuditEntry.objects.create(
        moderator=moderator,
        moderator_name=moderator.get_username(),
        action=action,
        target_user=user,
        target_game=game,
        target=(target or str(user or game))[:250],
        reason=reason.strip(),
    )
