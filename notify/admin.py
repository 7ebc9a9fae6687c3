from django.contrib import admin
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from moderation.lookups import SecretSafeAdmin

from . import outbox
from .models import INTERRUPTED, Handle, Mute, Notification, PushDevice, Webhook

# What lets someone push to a device or post to a hook: never filterable either.
CHANNEL_SECRETS = frozenset({"endpoint", "p256dh", "auth", "url", "secret"})


class ChannelSafeAdmin(SecretSafeAdmin):
    def lookup_allowed(self, lookup, value, request=None):
        if CHANNEL_SECRETS.intersection(lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)


class StateFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [
            ("pending", _("pending")),
            ("retrying", _("retrying")),
            ("sent", _("sent")),
            ("skipped", _("skipped")),
            ("interrupted", _("interrupted while sending")),
        ]

    def queryset(self, request, queryset):
        unsent = queryset.filter(sent_at=None, skipped="")
        return {
            "pending": unsent.filter(attempts=0),
            "retrying": unsent.filter(attempts__gt=0),
            "sent": queryset.exclude(sent_at=None),
            "skipped": queryset.exclude(skipped=""),
            "interrupted": queryset.filter(skipped=INTERRUPTED),
        }.get(self.value(), queryset)


@admin.register(Notification)
class NotificationAdmin(ChannelSafeAdmin):
    list_display = (
        "created_at",
        "kind",
        "channel",
        "recipient",
        "game",
        "due_at",
        "state",
        "attempts",
    )
    list_filter = (StateFilter, "channel", "kind")
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
        # A post interrupted while sending is sent again only when someone asks, here.
        rows = queryset.filter(
            Q(skipped="") | Q(skipped=INTERRUPTED), sent_at=None, in_digest=False
        )
        pks = list(rows.values_list("pk", "channel"))
        rows.update(
            next_attempt_at=None,
            claimed_at=None,
            sending_at=None,
            skipped="",
            due_at=timezone.now(),
        )
        for pk, channel in pks:
            outbox.enqueue(pk, channel)
        self.message_user(request, _("%(n)d messages queued again.") % {"n": len(pks)})


@admin.register(Mute)
class MuteAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "created_at")


@admin.register(PushDevice)
class PushDeviceAdmin(ChannelSafeAdmin):
    list_display = ("name", "user", "created_at")
    # The endpoint and keys let anyone push to the device: nobody reads them here.
    exclude = ("endpoint", "p256dh", "auth")
    search_fields = ("user__username", "name")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Webhook)
class WebhookAdmin(ChannelSafeAdmin):
    list_display = ("user", "service", "game", "failures", "disabled_at", "created_at")
    list_filter = ("service",)
    # The URL of a chat webhook is its key, the secret signs its posts.
    exclude = ("url", "secret")
    search_fields = ("user__username",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Handle)
class HandleAdmin(admin.ModelAdmin):
    list_display = ("user", "service", "handle")
