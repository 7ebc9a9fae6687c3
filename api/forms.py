from django import forms
from django.utils.translation import gettext_lazy as _

from .models import SCOPES


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("What the token is for, e.g. “my bot” or “Discord”."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("It may"),
        choices=SCOPES,
        widget=forms.CheckboxSelectMultiple,
        initial=["read"],
    )
