"""The audit trail of moderators' actions, players' reports, and chat mutes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AppendOnly(Exception):
    """An audit entry was to be changed or deleted: nobody may."""


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnly("audit entries cannot be changed")

    def delete(self):
        raise AppendOnly("audit entries cannot be deleted")


class AuditEntry(models.Model):
    """Who did what to whom, why and when. Written once, never changed.

    The names are copied in, so the entry still says who was involved after
    an account is deleted (the links then become empty).
    """

    class Action(models.TextChoices):
        BAN = "ban", _("ban user")
        UNBAN = "unban", _("unban user")
        ABORT = "abort", _("abort game")
        REMOVE_PLAYER = "remove_player", _("remove player from game")
        HIDE_MESSAGE = "hide_message", _("hide chat message")
        UNHIDE_MESSAGE = "unhide_message", _("show chat message again")
        RESOLVE_REPORT = "resolve_report", _("resolve report")
        REMOVE_ENTRANT = "remove_entrant", _("remove entrant from tournament")
        END_PAUSE = "end_pause", _("end an agreed pause")
        MUTE_CHAT = "mute_chat", _("mute user in chat")
        UNMUTE_CHAT = "unmute_chat", _("let user chat again")
        DELETE_ACCOUNT = "delete_account", _("delete account")

    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    moderator_name = models.CharField(_("who"), max_length=150)
    action = models.CharField(_("what"), max_length=20, choices=Action.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    target_game = models.ForeignKey(
        "games.Game", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    target = models.CharField(_("whom"), max_length=250)
    reason = models.TextField(_("why"))

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        permissions = [("moderate", "Can ban users, abort games, hide chat, resolve reports")]

    def __str__(self) -> str:
        return f"{self.moderator_name}: {self.action} {self.target}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly("audit entries cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("audit entries cannot be deleted")


class Report(models.Model):
    """A player's report of a chat message or of a player, waiting for a moderator."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    message = models.ForeignKey(
        "games.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The message as it was reported, in case it is changed or deleted later.
    quoted = models.TextField(_("reported message"), blank=True)
    reason = models.TextField(_("reason"), max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.TextField(blank=True)

    class Meta:
        ordering = ["status", "-created_at"]
        indexes = [models.Index(fields=["reporter", "created_at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reported} ({self.get_status_display()})"


class ChatMute(models.Model):
    """A player who does not want to read another player's chat lines."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_chat_mute")]

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class ChatBan(models.Model):
    """A moderator's decision that a player may write no chat line until ``until``.

    One row per player: a new decision replaces the old row (a new id, which the game
    page's key reads), lifting it deletes the row; the audit trail keeps the history."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_ban"
    )
    until = models.DateTimeField(_("until"))
    # Told to the player (mail, game page, refusal): the audit entry's reason.
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "until"])]

    def __str__(self) -> str:
        return f"{self.user} muted in chat until {self.until:%Y-%m-%d %H:%M}"
