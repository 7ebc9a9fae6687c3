"""Admin actions that ask for a reason on a confirmation page before acting
(the intermediate-page pattern of Django's own "delete selected")."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .actions import ModerationError
from .lookups import SecretSafeAdmin


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason (kept in the audit trail)"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
    )

    def __init__(self, *args, public: bool = False, told: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if told:
            self.fields["reason"].label = _(
                "Reason (told to the player by e-mail and on the site, and kept in the audit trail)"
            )
        if public:
            self.fields["reason"].label = _(
                "Reason (shown to the players and everyone who opens the game, "
                "and kept in the audit trail)"
            )


class ModeratorAdmin(SecretSafeAdmin):
    """A model admin whose moderation actions need the ``moderation.moderate`` permission."""

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("moderation.moderate")


class ReadOnlyAdmin(ModeratorAdmin):
    """Records that change only through moderation actions (or never)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def moderation_action(
    description: str, perform: Callable, *, public_reason: bool = False, told: bool = False
):
    """An admin action that runs ``perform(moderator, obj, reason)`` for each
    selected object once the moderator has confirmed it with a reason.

    ``public_reason``: ``perform`` shows the reason on the game (an abort), and the
    form says so. ``told``: the player it is about is told the reason (a ban, a chat
    mute), and the form says so."""

    @admin.action(description=description, permissions=["moderate"])
    def action(modeladmin, request, queryset):
        data = request.POST if request.POST.get("confirm") else None
        form = ReasonForm(data, public=public_reason, told=told)
        if form.is_valid():
            done = 0
            for obj in queryset:
                try:
                    perform(request.user, obj, form.cleaned_data["reason"])
                    done += 1
                except ModerationError as error:
                    modeladmin.message_user(request, f"{obj}: {error}", messages.WARNING)
            if done:
                modeladmin.message_user(
                    request,
                    _("%(action)s: done for %(n)d.") % {"action": description, "n": done},
                    messages.SUCCESS,
                )
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": description,
            "opts": modeladmin.model._meta,
            "objects": list(queryset[:100]),
            "count": queryset.count(),
            "form": form,
            "action_name": request.POST.get("action", ""),
            "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
            "select_across": request.POST.get("select_across", "0"),
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/moderation/confirm.html", context)

    # The admin tells actions apart by name.
    action.__name__ = perform.__name__
    return action
