from django import forms

from .models import User


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "notify_turn",
            "notify_reminder_hours",
            "notify_game_end",
            "vacation_until",
        ]
        widgets = {"vacation_until": forms.DateInput(attrs={"type": "date"})}
