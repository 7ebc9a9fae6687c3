from django import forms
from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import User


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("language"),
        required=False,
        choices=[("", _("as my browser says")), *settings.LANGUAGES],
    )

    class Meta:
        model = User
        fields = User.PREFERENCE_FIELDS
        widgets = {"vacation_until": forms.DateInput(attrs={"type": "date"})}

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if name:
            # Names appear in logs and chat: nobody may look like somebody else.
            clash = User.objects.filter(Q(username__iexact=name) | Q(display_name__iexact=name))
            if clash.exclude(pk=self.instance.pk).exists():
                raise forms.ValidationError(_("Another player already uses this name."))
        return name
