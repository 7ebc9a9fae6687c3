from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from enginekit import N_, msg

from . import play
from .models import ChatMessage, Game, Move, Seat


class SeatInline(admin.TabularInline):
    # Who plays changes only through the site's rules (join, leave, resign).
    model = Seat
    extra = 0
    can_delete = False
    fields = readonly_fields = [
        "user",
        "number",
        "joined_at",
        "to_move",
        "to_move_since",
        "resigned",
    ]

    def has_add_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    # The move log is append-only; moderators read it, they never edit it.
    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ["number", "seat", "action", "created_at", "undone"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "title", "kind", "status", "players", "move_count", "created_at"]
    list_filter = ["kind", "status", "private"]
    search_fields = ["title", "seats__user__username"]
    # Only the title may be edited directly (an offensive one). Everything else
    # is the game's state: it changes through games.play, which keeps the rules.
    readonly_fields = [
        "kind",
        "rules_version",
        "options",
        "players",
        "status",
        "private",
        "created_by",
        "time_limit_days",
        "deadline",
        "move_count",
        "version",
        "undo_count",
        "chat_count",
        "result",
        "created_at",
        "started_at",
        "finished_at",
    ]
    inlines = [SeatInline, MoveInline]
    actions = ["abort_games"]

    @admin.action(description=_("Abort the selected games"))
    def abort_games(self, request, queryset):
        # Through play.abort, so the players of a running game are told.
        reason = msg(N_("A moderator aborted the game."))
        for pk in queryset.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).values_list(
            "pk", flat=True
        ):
            try:
                play.abort(pk, reason)
            except play.PlayError:
                pass  # it ended meanwhile


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "game", "text", "hidden"]
    list_filter = ["hidden"]
    search_fields = ["text", "user__username"]
    actions = ["hide", "unhide"]

    @admin.action(description=_("Hide the selected messages"))
    def hide(self, request, queryset):
        queryset.update(hidden=True)

    @admin.action(description=_("Show the selected messages again"))
    def unhide(self, request, queryset):
        queryset.update(hidden=False)
