"""The ticket form: the title's options as its create form offers them, and what the
player accepts."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import extend
from games.clock.paces import choices as pace_choices
from games.forms import TitleOptions, add_option_fields, days_label

from .tickets import Wish

LAPSE_DAYS = [1, 3, 7, 14]
# Hours of waiting after which computer players may fill the table.
COMPUTER_HOURS = [1, 6, 24, 72]


def _hours_label(hours: int) -> str:
    if hours % 24 == 0:
        return days_label(hours // 24)
    return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}


class TicketForm(TitleOptions, forms.Form):
    player_counts = forms.TypedMultipleChoiceField(
        label=_("Numbers of players I accept"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    time_limit_days = forms.TypedChoiceField(label=_("Time per move"), coerce=int, initial=3)
    pace = forms.ChoiceField(label=_("Clock"), required=False)
    rated = forms.BooleanField(label=_("Rated game"), required=False, initial=True)
    min_rating = forms.IntegerField(
        label=_("Lowest rating of the others"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=_("Empty: any."),
    )
    max_rating = forms.IntegerField(
        label=_("Highest rating of the others"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=_("Empty: any."),
    )
    lapse_days = forms.TypedChoiceField(label=_("Stop looking after"), coerce=int, initial=7)
    computers_after_hours = forms.TypedChoiceField(
        label=_("Computer players fill the table after"),
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("If nobody fits by then, you play against computer players, unrated."),
    )
    computer_strength = forms.ChoiceField(label=_("Computer players' strength"), required=False)

    def __init__(self, engine, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = engine
        counts = range(engine.min_players, engine.max_players + 1)
        self.fields["player_counts"].choices = [(n, str(n)) for n in counts]
        self.fields["player_counts"].initial = list(counts)
        self.fields["time_limit_days"].choices = [
            (d, days_label(d)) for d in settings.GAME_TIME_LIMIT_DAYS
        ]
        self.fields["pace"].choices = pace_choices(gettext("A fixed time per move (chosen above)"))
        self.fields["lapse_days"].choices = [(d, days_label(d)) for d in LAPSE_DAYS]
        computers = extend.computer_players()
        if computers is None:
            del self.fields["computers_after_hours"], self.fields["computer_strength"]
        else:
            self.fields["computers_after_hours"].choices = [("", _("never"))] + [
                (h, _hours_label(h)) for h in COMPUTER_HOURS
            ]
            self.fields["computer_strength"].choices = [
                (value, name) for value, name, _about in computers.strengths
            ]
            self.fields["computer_strength"].initial = computers.strengths[0][0]
        self.option_names = add_option_fields(self, engine)
        self.order_fields([f"option_{name}" for name in self.option_names])

    def clean(self):
        data = super().clean()
        low, high = data.get("min_rating"), data.get("max_rating")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(_("The lowest rating must not be above the highest."))
        return data

    def wish(self) -> Wish:
        data = self.cleaned_data
        return Wish(
            kind=self.engine.slug,
            options=self.options(),
            player_counts=data["player_counts"],
            time_limit_days=data["time_limit_days"],
            rated=data["rated"],
            min_rating=data["min_rating"],
            max_rating=data["max_rating"],
            lapse_days=data["lapse_days"],
            computers_after_hours=data.get("computers_after_hours"),
            computer_strength=data.get("computer_strength") or "",
            pace=data.get("pace") or "",
        )
