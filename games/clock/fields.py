"""The clock a creator chooses: a named pace, a custom bank, or the fixed time per move.

``ClockFields`` adds the fields to a form (the create form, a tournament's, a ladder's)
and ``chosen()`` reads them back as what ``play.create_game`` takes.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .bank import Pace
from .paces import named, paces

PER_MOVE = "per_move"
CUSTOM = "custom"
# The longest custom time a bank may start with or hold: 60 days.
LONGEST = timedelta(days=60)
_HOURS_MINUTES = re.compile(r"^\s*(\d{1,4})(?:\s*:\s*([0-5]\d))?\s*$")


class HoursMinutesField(forms.CharField):
    """A span of time typed as hours or hours:minutes ("36", "1:30")."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.widget.attrs.update({"placeholder": "h:mm", "inputmode": "numeric", "maxlength": 8})

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        match = _HOURS_MINUTES.match(value)
        if not match:
            raise forms.ValidationError(_("Enter hours, or hours and minutes as 1:30."))
        return timedelta(hours=int(match[1]), minutes=int(match[2] or 0))


class ClockFields:
    """Form fields for the clock; call ``add_clock_fields`` in ``__init__`` and
    ``clean_clock`` in ``clean``."""

    custom = True  # whether a custom bank is offered (the create form) or only the paces

    def add_clock_fields(self, initial: str = PER_MOVE) -> None:
        choices = [(PER_MOVE, gettext("A fixed time per move (chosen above)"))]
        choices += [(p.key, p.label) for p in paces()]
        if self.custom:
            choices.append((CUSTOM, gettext("A bank of my own (below)")))
        self.fields["clock"] = forms.ChoiceField(
            label=_("Clock"),
            choices=choices,
            initial=initial,
            required=False,
            help_text=_(
                "A time per move starts afresh with every turn. A bank is each player's own"
                " time: it runs only while they are to move, each turn adds to it, up to a"
                " most."
            ),
        )
        if self.custom:
            self.fields["bank_start"] = HoursMinutesField(
                label=_("Own bank: starting time"),
                help_text=_("Hours, or hours and minutes as 1:30; at least one hour."),
            )
            self.fields["bank_increment"] = HoursMinutesField(
                label=_("Own bank: added after each turn")
            )
            self.fields["bank_cap"] = HoursMinutesField(label=_("Own bank: the most it holds"))
        self.fields["weekends_off"] = forms.BooleanField(
            label=_("Weekends off"),
            help_text=_(
                "With a bank: it does not run on Saturday and Sunday in each player's own"
                " time zone."
            ),
            required=False,
        )

    def clean_clock_fields(self, data: dict) -> None:
        """Sets ``data["pace"]`` (None: the time per move of ``time_limit_days``), or
        adds the errors."""
        choice = data.get("clock") or PER_MOVE
        data["pace"] = None
        if choice == PER_MOVE:
            if data.get("weekends_off"):
                self.add_error("weekends_off", _("Weekends off need a clock with a bank."))
            return
        pace = named(choice)
        if pace is not None:
            data["pace"] = pace.pace
            return
        start, increment, cap = (data.get(f"bank_{n}") for n in ("start", "increment", "cap"))
        if start is None or start < timedelta(hours=1):
            self.add_error("bank_start", _("A bank starts with at least one hour."))
            return
        increment = increment or timedelta(0)
        cap = cap or start
        if start > LONGEST or cap > LONGEST:
            self.add_error("bank_cap", _("A bank holds at most 60 days."))
        elif cap < start:
            self.add_error("bank_cap", _("The most a bank holds cannot be less than its start."))
        else:
            data["pace"] = Pace(start, increment, cap)
