from django.contrib import admin

from .models import Ladder, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Read-only: tournaments change through their pages (removing an entrant is audited)."""

    list_display = ["name", "kind", "format", "status", "signup_closes", "created_by"]
    list_filter = ["status", "format", "kind"]
    search_fields = ["name"]
    readonly_fields = [f.name for f in Tournament._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    """Moderators open ladders (one for every title exists from the start) and close them."""

    list_display = ["name", "kind", "table_size", "time_limit_days", "active"]
    list_filter = ["active", "kind"]
