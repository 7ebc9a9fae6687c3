"""The form that creates a tournament: the title's options, the format, the sign-up."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.clock.paces import choices as pace_choices
from games.forms import TitleOptions, add_option_fields, days_label
from games.models import Game

from .models import Tournament
from .pairing import knockout, roundrobin

SIGNUP_DAYS = [1, 3, 7, 14]


class TournamentForm(TitleOptions, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    table_size = forms.TypedChoiceField(label=_("Players per table"), coerce=int)
    format = forms.ChoiceField(
        label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.SWISS
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"), min_value=1, max_value=15, initial=4, required=False
    )
    group_size = forms.IntegerField(
        label=_("Group size (round robin)"), min_value=2, max_value=16, initial=4, required=False
    )
    every_seating = forms.BooleanField(
        label=_("Play each table in every seating (round robin)"),
        help_text=_(
            "Each table is played once per seat, the seats rotated: everyone plays every "
            "seat equally often. Otherwise each table is played once and seats differ by "
            "at most one."
        ),
        required=False,
        initial=True,
    )
    finals = forms.IntegerField(
        label=_("Knockout finals for the best"),
        help_text=_("0 for none; else 2, 4, 8, ... (3, 9 or 4, 16 at larger tables)."),
        min_value=0,
        max_value=64,
        initial=0,
        required=False,
    )
    time_limit_days = forms.TypedChoiceField(label=_("Time per move"), coerce=int, initial=3)
    pace = forms.ChoiceField(label=_("Clock"), required=False)
    timeout_policy = forms.ChoiceField(
        label=_("When a player runs out of time"),
        choices=Game.TimeoutPolicy.choices,
        initial=Game.TimeoutPolicy.LOSE,
        help_text=_("Whatever happens to the game, the tournament counts it lost for them."),
    )
    withdrawal = forms.ChoiceField(
        label=_("When an entrant withdraws"),
        choices=Tournament.Withdrawal.choices,
        initial=Tournament.Withdrawal.FORFEIT,
    )
    min_entrants = forms.IntegerField(label=_("Fewest entrants"), min_value=2, initial=4)
    max_entrants = forms.IntegerField(label=_("Most entrants"), min_value=2, initial=16)
    signup_days = forms.TypedChoiceField(label=_("Sign-up open for"), coerce=int, initial=7)

    def __init__(self, engine, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = engine
        counts = range(engine.min_players, engine.max_players + 1)
        self.fields["table_size"].choices = [(n, str(n)) for n in counts if n <= 4]
        self.fields["table_size"].initial = engine.min_players
        self.fields["max_entrants"].validators.append(
            MaxValueValidator(settings.TOURNAMENT_MAX_ENTRANTS)
        )
        self.fields["time_limit_days"].choices = [
            (d, days_label(d)) for d in settings.GAME_TIME_LIMIT_DAYS
        ]
        self.fields["pace"].choices = pace_choices(gettext("A fixed time per move (chosen above)"))
        self.fields["signup_days"].choices = [(d, days_label(d)) for d in SIGNUP_DAYS]
        self.fields["name"].initial = gettext("%(title)s tournament") % {
            "title": gettext(engine.name)
        }
        self.option_names = add_option_fields(self, engine)
        # The title's own choices next to its table size, before the format.
        options = [f"option_{name}" for name in self.option_names]
        self.order_fields(["name", "table_size", *options])

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        size = data["table_size"]
        try:
            data["options"] = self.engine.validate_options(size, self.options())
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        if data["max_entrants"] < data["min_entrants"]:
            self.add_error("max_entrants", _("At least as many as the fewest entrants."))
        if data["min_entrants"] < size:
            self.add_error("min_entrants", _("At least one full table: %(n)d.") % {"n": size})
        if data["format"] == Tournament.Format.SWISS:
            if not data.get("rounds"):
                self.add_error("rounds", _("How many rounds?"))
            data["group_size"] = 0
        else:
            allowed = roundrobin.allowed_sizes(size)
            if data.get("group_size") not in allowed:
                self.add_error(
                    "group_size",
                    _("At tables of %(size)d a group can have %(sizes)s players.")
                    % {"size": size, "sizes": ", ".join(str(n) for n in allowed)},
                )
            data["rounds"] = 0
        finals = data.get("finals") or 0
        if finals and finals not in knockout.sizes(size, data["max_entrants"]):
            self.add_error(
                "finals",
                _("The finals need a power of %(size)d players, at most the most entrants.")
                % {"size": size},
            )
        data["finals"] = finals
        return data

    def fields_for_model(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "kind": self.engine.slug,
            "options": data["options"],
            "table_size": data["table_size"],
            "format": data["format"],
            "rounds": data["rounds"] or 0,
            "group_size": data["group_size"] or 0,
            "every_seating": data["every_seating"],
            "finals": data["finals"],
            "time_limit_days": data["time_limit_days"],
            "pace": data.get("pace") or "",
            "timeout_policy": data["timeout_policy"],
            "withdrawal": data["withdrawal"],
            "min_entrants": data["min_entrants"],
            "max_entrants": data["max_entrants"],
            "signup_closes": timezone.now() + timedelta(days=data["signup_days"]),
        }


class LadderForm(forms.Form):
    games_at_once = forms.TypedChoiceField(
        label=_("Ladder games at once"),
        coerce=int,
        choices=[(n, str(n)) for n in range(1, 6)],
        initial=1,
    )
