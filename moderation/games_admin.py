"""The admin of the frame's records (games, moves, seats, chat): moderators read them
and act on them through moderation actions; ``games`` itself registers no admin, as it
knows nothing of moderation."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.models import ChatMessage, Game, Move, Seat

from . import actions as moderation
from .confirm import ModeratorAdmin, ReadOnlyAdmin, moderation_action


class SeatInline(admin.TabularInline):
    # Who plays changes only through the site's rules (join, leave, resign)
    # and the moderators' "remove from the game" on the seats list.
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
        "vacated",
        "ended_at",
    ]

    def get_queryset(self, request):
        # Seat.every: moderators see who left a seat to a substitute, and when.
        return Seat.every.select_related("user")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ModeratorAdmin):
    list_display = ["id", "title", "kind", "status", "players", "move_count", "created_at"]
    list_filter = ["kind", "status", "private"]
    search_fields = ["title", "seats__user__username"]
    # The move log is linked, not inlined: a long game made the page slow.
    inlines = [SeatInline]
    actions = [
        moderation_action(_("Abort the selected games"), moderation.abort_game, public_reason=True),
        moderation_action(_("End the agreed pause of the selected games"), moderation.end_pause),
    ]

    # Only the title may be edited directly (an offensive one). Everything else
    # is the game's state: it changes through games.play, which keeps the rules,
    # and a game is created only by its players (play.create_game).
    shown = [
        "kind",
        "rules_version",
        "options",
        "players",
        "status",
        "private",
        "created_by",
        "time_limit_days",
        "deadline",
        "timeout_policy",
        "vacation_allowed",
        "paused_remaining",
        "pause_days",
        "paused_until",
        "move_count",
        "moves_link",
        "seats_link",
        "version",
        "undo_count",
        "chat_count",
        "result",
        "created_at",
        "started_at",
        "finished_at",
    ]

    def get_readonly_fields(self, request, obj=None):
        # Every other field the form would offer (a field added later included) is
        # shown, never edited; the seed stays out (moderation.lookups.SECRET_FIELDS).
        others = [
            f.name
            for f in Game._meta.concrete_fields
            if f.editable and f.name != "title" and f.name not in self.shown
        ]
        return [*self.shown, *others]

    def has_add_permission(self, request):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("created_by")

    @admin.display(description=_("moves"))
    def moves_link(self, game):
        url = reverse("admin:games_move_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">{}</a>', url, _("Read the move log"))

    @admin.display(description=_("remove a player"))
    def seats_link(self, game):
        url = reverse("admin:games_seat_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">{}</a>', url, _("Seats of this game"))


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    # The move log is append-only; moderators read it, they never edit it.
    list_display = ["game", "number", "seat", "shown_action", "created_at", "undone"]
    list_select_related = ["game"]
    list_filter = ["undone"]
    search_fields = ["=game__id"]
    raw_id_fields = ["game"]
    fields = readonly_fields = ["game", "number", "seat", "shown_action", "created_at", "undone"]

    @admin.display(description=_("action"))
    def shown_action(self, move):
        # A running Tal game's actions hold secret bids and plans; a moderator
        # may be a player too. The log is readable once the game is over.
        if move.game.status == Game.Status.ACTIVE:
            return _("hidden while the game runs")
        return move.action


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["game", "user", "number", "to_move", "resigned", "vacated"]
    list_filter = ["vacated"]
    list_select_related = ["game", "user"]
    search_fields = ["user__username", "=game__id"]
    readonly_fields = [
        "game", "user", "number", "joined_at", "to_move", "resigned", "vacated", "ended_at",
    ]  # fmt: skip
    actions = [
        moderation_action(
            _("Remove these players from their games (as if their time had run out)"),
            moderation.remove_player,
        )
    ]

    def get_queryset(self, request):
        # Seat.every: a seat left to a substitute is part of the game's story.
        return Seat.every.all()


@admin.register(ChatMessage)
class ChatMessageAdmin(ModeratorAdmin):
    list_display = ["created_at", "user", "game", "text", "hidden"]
    public_fields = frozenset({"text"})
    list_filter = ["hidden"]
    list_select_related = ["user", "game"]
    search_fields = ["text", "user__username"]
    # Hiding is a moderation action with a reason and an audit entry, never an edit.
    readonly_fields = ["game", "user", "text", "created_at", "hidden"]
    actions = [
        moderation_action(_("Hide the selected messages"), moderation.hide_message),
        moderation_action(_("Show the selected messages again"), moderation.unhide_message),
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
