from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from . import actions, games_admin  # noqa: F401  (games_admin: the games' records)
from .confirm import ReadOnlyAdmin, moderation_action
from .models import AuditEntry, Report


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only for everyone, superusers included: the trail is append-only."""

    list_display = ["created_at", "moderator_name", "action", "target", "reason"]
    list_filter = ["action"]
    public_fields = frozenset({"action"})  # the kind of moderation, not a game's action
    search_fields = ["moderator_name", "target", "reason"]
    date_hierarchy = "created_at"
    fields = readonly_fields = [
        "created_at",
        "moderator_name",
        "action",
        "target",
        "target_user",
        "target_game",
        "reason",
    ]


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "status", "reported", "reporter", "game", "reason"]
    list_filter = ["status"]
    list_select_related = ["reported", "reporter", "game"]
    search_fields = ["reported__username", "reporter__username", "reason", "quoted"]
    fields = readonly_fields = [
        "created_at",
        "reporter",
        "reported",
        "game",
        "message",
        "quoted",
        "reason",
        "status",
        "resolved_by",
        "resolved_at",
        "resolution",
    ]
    actions = [
        moderation_action(_("Resolve the selected reports"), actions.resolve_report),
    ]
