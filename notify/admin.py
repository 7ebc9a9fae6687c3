from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from moderation.lookups import SecretSafeAdmin

from . import outbox
from .models import Mute, Notification


class StateFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [
            ("pending", _("pending")),
            ("retrying", _("retrying")),
            ("sent", _("sent")),
            ("skipped", _("skipped")),
        ]

    def queryset(self, request, queryset):
        unsent = queryset.filter(sent_at=None, skipped="")
        return {
            "pending": unsent.filter(attempts=0),
            "retrying": unsent.filter(attempts__gt=0),
            "sent": queryset.exclude(sent_at=None),
            "skipped": queryset.exclude(skipped=""),
        }.get(self.value(), queryset)


@admin.register(Notification)
class NotificationAdmin(SecretSafeAdmin):
    list_display = ("created_at", "kind", "address", "game", "due_at", "state", "attempts")
    list_filter = (StateFilter, "kind")
    search_fields = ("address", "dedupe_key")
    # The body of account mail holds sign-up and password-reset keys: no
    # moderator may read them.
    exclude = ("text", "html")
    actions = ["retry_now"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Retry now"), permissions=["view"])
    def retry_now(self, request, queryset):
        # Turns waiting for a digest go out with it, not one by one.
        rows = queryset.filter(sent_at=None, skipped="", in_digest=False)
        pks = list(rows.values_list("pk", flat=True))
        rows.update(next_attempt_at=None, claimed_at=None, due_at=timezone.now())
        for pk in pks:
            outbox.enqueue(pk)
        self.message_user(request, _("%(n)d e-mails queued again.") % {"n": len(pks)})


@admin.register(Mute)
class MuteAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "created_at")
