from django import forms
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import play
from games.clock import vacation
from notify import outbox
from notify.compose import SEEN_RECENTLY

from . import time_zones
from .models import User

# A change of any of these moves the mail that is waiting (notify.outbox.reschedule).
SCHEDULE_FIELDS = {"quiet_from", "quiet_until", "digest_hour", "time_zone"}


def time_zone_field(
    current: str = "", required: bool = True, guess: bool = True
) -> forms.ChoiceField:
    """The curated zones; an older choice outside them stays selectable.

    With ``guess`` (sign-up), ``data-browser-time-zone`` names the default:
    while the field still holds it, site.js selects the browser's own zone
    instead. Without (settings), the default may be a choice: site.js only
    offers the browser's zone beside it.
    """
    choices = time_zones.choices()
    if current and current not in time_zones.canonical():
        choices = [(current, current), *choices]
    default = User._meta.get_field("time_zone").default
    return forms.ChoiceField(
        label=_("Time zone"),
        choices=choices,
        initial=default,
        required=required,
        widget=forms.Select(attrs={"data-browser-time-zone": default} if guess else {}),
    )


class SignupForm(forms.Form):
    """Extra fields of allauth's sign-up form (``ACCOUNT_SIGNUP_FORM_CLASS``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Optional: a client that sends no zone (a script, an old page) gets the default.
        self.fields["time_zone"] = time_zone_field(required=False)

    def signup(self, request, user) -> None:
        user.time_zone = self.cleaned_data.get("time_zone") or user.time_zone
        user.save(update_fields=["time_zone"])


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("as my browser says")), *settings.LANGUAGES],
    )

    class Meta:
        model = User
        fields = User.PREFERENCE_FIELDS
        widgets = {
            # A date field reads only ISO dates, whatever the page's language: a German
            # "20.12.2026" showed an empty field, and the next save cleared the vacation.
            "vacation_until": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "quiet_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_until": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"] = time_zone_field(self.instance.time_zone, guess=False)
        # A form sent without it (an older page, a script) keeps the device's colours.
        self.fields["theme"].required = False
        # When the turn mail comes, said where it is set (the game page says it too).
        minutes = int(SEEN_RECENTLY.total_seconds() // 60)
        self.fields["notify_turn"].help_text = ngettext(
            "Not while you have the game open: the e-mail goes about %(n)d minute after "
            "you leave the game's page.",
            "Not while you have the game open: the e-mail goes about %(n)d minutes after "
            "you leave the game's page.",
            minutes,
        ) % {"n": minutes}

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if name:
            # Names appear in logs and chat: nobody may look like somebody else.
            clash = User.objects.filter(Q(username__iexact=name) | Q(display_name__iexact=name))
            if clash.exclude(pk=self.instance.pk).exists():
                raise forms.ValidationError(_("Another player already uses this name."))
        return name

    def clean(self):
        data = super().clean()
        if "quiet_from" in self.errors or "quiet_until" in self.errors:
            return data
        if (data.get("quiet_from") is None) != (data.get("quiet_until") is None):
            raise forms.ValidationError(
                _("Give both times of your quiet hours, or leave both empty for none.")
            )
        return data

    def clean_theme(self):
        return self.cleaned_data["theme"] or User.Theme.SYSTEM

    def clean_vacation_until(self):
        until = self.cleaned_data["vacation_until"]
        past = until is not None and until < timezone.localdate()
        if past and until != self.instance.vacation_until:
            # A date already over would set nothing: say so rather than save it.
            raise forms.ValidationError(
                _("This day is already over. Give today or a later day, or leave it empty.")
            )
        years = vacation.overdrawn_years(self.instance, until)
        if years:
            raise forms.ValidationError(
                ngettext(
                    "This is more than your %(n)d vacation day a year (%(years)s).",
                    "This is more than your %(n)d vacation days a year (%(years)s).",
                    vacation.allowance(),
                )
                % {"n": vacation.allowance(), "years": ", ".join(map(str, years))}
            )
        return until

    def save(self, commit=True):
        user = super().save(commit)
        if commit:
            vacation.book(user)
            if "time_zone" in self.changed_data:
                # Weekends off follow the player's zone: their running banks' deadlines.
                play.time_zone_changed(user, self.initial.get("time_zone") or "")
            if SCHEDULE_FIELDS.intersection(self.changed_data):
                outbox.reschedule(user)
        return user
