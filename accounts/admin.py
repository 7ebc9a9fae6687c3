from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from moderation import actions as moderation
from moderation.actions import ModerationError
from moderation.confirm import ModeratorAdmin, moderation_action

from . import erase
from .models import User


def delete_account(moderator, user, reason: str) -> None:
    """The player's own deletion (``accounts.erase``), for a reason kept in the audit trail."""
    try:
        erase.delete_account(user, moderator=moderator, reason=reason)
    except erase.EraseError as error:
        raise ModerationError(str(error)) from None


@admin.register(User)
class UserAdmin(BaseUserAdmin, ModeratorAdmin):
    list_display = ["username", "email", "display_name", "is_active", "date_joined", "last_login"]
    list_filter = ["is_active", "is_staff", "is_superuser"]
    search_fields = ["username", "email", "display_name"]
    fieldsets = BaseUserAdmin.fieldsets + (("Site", {"fields": User.PREFERENCE_FIELDS}),)
    # A ban is a moderation action with a reason and an audit entry, never a tick box.
    readonly_fields = ["is_active", "last_login", "date_joined"]
    actions = [
        moderation_action(_("Ban the selected users"), moderation.ban, told=True),
        moderation_action(_("Unban the selected users"), moderation.unban),
        moderation_action(
            _("Mute the selected users in chat for a week"),
            moderation.mute_chat_for_a_week,
            told=True,
        ),
        moderation_action(
            _("Mute the selected users in chat for a month"),
            moderation.mute_chat_for_a_month,
            told=True,
        ),
        moderation_action(_("Let the selected users chat again"), moderation.unmute_chat),
        moderation_action(_("Delete the selected accounts (anonymise them)"), delete_account),
    ]

    def has_delete_permission(self, request, obj=None):
        # Removing the row would take the player's seats, moves' owners and ratings with it
        # and break the opponents' games: an account is deleted by anonymising it (above).
        return False
