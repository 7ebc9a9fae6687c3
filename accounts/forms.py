from django import forms
from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import vacation

from .models import User


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
            "vacation_until": forms.DateInput(attrs={"type": "date"}),
            "quiet_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_until": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if name:
            # Names appear in logs and chat: nobody may look like somebody else.
            clash = User.objects.filter(Q(username__iexact=name) | Q(display_name__iexact=name))
            if clash.exclude(pk=self.instance.pk).exists():
                raise forms.ValidationError(_("Another player already uses this name."))
        return name

    def clean_vacation_until(self):
        until = self.cleaned_data["vacation_until"]
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
        return user
