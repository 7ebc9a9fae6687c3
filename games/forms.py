from django import forms
from django.conf import settings
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from . import extend, play
from .clock.fields import ClockFields
from .models import Game

# The days of agreed pauses (games.pause) a creator may allow a game in all.
PAUSE_DAY_CHOICES = [0, 7, 14, 30]


def days_label(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def _team_size(engine, players: int) -> int:
    teammates = getattr(engine, "teammates", None)
    return len(teammates(players, 0)) if teammates else 1


def _player_count_label(engine, players: int) -> str:
    size = _team_size(engine, players)
    if size == 1:
        return str(players)
    return _("%(n)d (%(teams)d teams of %(size)d)") % {
        "n": players,
        "teams": players // size,
        "size": size,
    }


def _team_note(engine, players: int) -> str:
    size = _team_size(engine, players)
    note = _(
        "With %(n)d players you play in %(teams)d teams of %(size)d: partners win or lose together."
    ) % {"n": players, "teams": players // size, "size": size}
    chat_allowed = getattr(engine, "chat_allowed", None)
    if chat_allowed and not chat_allowed(players, {}):
        note += " " + _("Partners may not talk in the chat until the game ends.")
    return note


def _computer_choices() -> list[tuple[str, str]]:
    """What fills each seat besides the creator's: a person who joins, or a computer
    player of one of the registered strengths (``games.extend.computer_players``)."""
    computers = extend.computer_players()
    strengths = computers.strengths if computers is not None else []
    return [("", _("a person who joins"))] + [(value, name) for value, name, _about in strengths]


class TitleOptions:
    """A form with a field for each of a title's options (``add_option_fields``)."""

    option_names: list[str]

    def options(self) -> dict:
        """The options chosen, by name (cleaned data)."""
        return {name: self.cleaned_data[f"option_{name}"] for name in self.option_names}


class NewGameForm(TitleOptions, ClockFields, forms.Form):
    """The fields every game has, plus one field per option of the engine's schema."""

    title = forms.CharField(label=_("Title"), max_length=80)
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    time_limit_days = forms.TypedChoiceField(
        label=_("Time per move"),
        coerce=int,
        initial=3,
        # Labels are set per form: a label made at import would stay in one language.
        choices=[(d, str(d)) for d in settings.GAME_TIME_LIMIT_DAYS],
    )
    timeout_policy = forms.ChoiceField(
        label=_("When a player runs out of time"),
        choices=Game.TimeoutPolicy.choices,
        initial=Game.TimeoutPolicy.LOSE,
        # Clients that predate the choice get the default rather than a refusal.
        required=False,
    )
    vacation_allowed = forms.BooleanField(
        label=_("Vacation stops the clock"),
        help_text=_("While everyone who must move is on vacation, their time does not run."),
        required=False,
        initial=True,
    )
    pause_days = forms.TypedChoiceField(
        label=_("Agreed pauses"),
        coerce=int,
        initial=14,
        # Clients that predate the choice get the default rather than a refusal.
        required=False,
        empty_value=14,
        help_text=_(
            "When every player agrees, the clock stops until an agreed date; this is the"
            " most days of such pauses the game allows in all."
        ),
    )
    private = forms.BooleanField(
        label=_("Private game (only people with the invite link can join)"), required=False
    )

    def __init__(self, engine, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = engine
        counts = range(engine.min_players, engine.max_players + 1)
        self.fields["players"].choices = [(n, _player_count_label(engine, n)) for n in counts]
        self.fields["players"].help_text = " ".join(
            _team_note(engine, n) for n in counts if _team_size(engine, n) > 1
        )
        self.fields["players"].initial = engine.min_players
        self.fields["time_limit_days"].choices = [
            (d, days_label(d)) for d in settings.GAME_TIME_LIMIT_DAYS
        ]
        self.fields["pause_days"].choices = [
            (d, days_label(d) if d else _("none")) for d in PAUSE_DAY_CHOICES
        ]
        self.fields["title"].initial = gettext(engine.name)
        self.add_clock_fields()
        clock = [
            "time_limit_days",
            "clock",
            "bank_start",
            "bank_increment",
            "bank_cap",
            "weekends_off",
        ]
        self.order_fields([*self.fields][: [*self.fields].index("time_limit_days")] + clock)
        # Seat 1 is the creator's; seats past the chosen number of players are ignored.
        self.computer_names = []
        computers = extend.computer_players()
        choices = _computer_choices()
        levels = " ".join(str(about) for _v, _n, about in computers.strengths) if computers else ""
        for number in range(2, engine.max_players + 1) if computers else ():
            name = f"computer_{number}"
            self.fields[name] = forms.ChoiceField(
                label=_("Seat %(n)d") % {"n": number},
                choices=choices,
                required=False,
                help_text=(
                    _(
                        "Fill empty seats with computer players for a practice game: it starts"
                        " at once when every seat is filled, and it is not rated."
                    )
                    + " "
                    + levels
                    if number == 2
                    else (_("Used only with at least %(n)d players.") % {"n": number})
                ),
            )
            self.computer_names.append(name)
        challengers = extend.challengers()
        offered = challengers.choices() if challengers else []
        if offered:
            self.fields["challenge"] = forms.ChoiceField(
                label=_("Challenge a bot"),
                choices=[("", _("nobody"))] + offered,
                required=False,
                help_text=_("A bot of another player's, which plays through the site's API."),
            )
        self.order_fields(["title", "players", *self.computer_names, "challenge"])
        self.option_names = add_option_fields(self, engine)

    def clean_timeout_policy(self):
        return self.cleaned_data["timeout_policy"] or Game.TimeoutPolicy.LOSE

    def create_game(self, user, kind) -> Game:
        """The game of ``kind`` the valid form asks for, created by ``user`` (the page and
        the API: one place that hands every field on, the clock's included)."""
        data = self.cleaned_data
        return play.create_game(
            user,
            kind,
            title=data["title"],
            players=data["players"],
            options=self.options(),
            time_limit_days=data["time_limit_days"],
            private=data["private"],
            timeout_policy=data["timeout_policy"],
            vacation_allowed=data["vacation_allowed"],
            computer_players=self.computer_players(),
            pause_days=data["pause_days"],
            pace=data["pace"],
            weekends_off=data["weekends_off"],
        )

    def computer_players(self) -> list[str]:
        """The strengths of the computer players asked for, in the seats the game has."""
        players = self.cleaned_data["players"]
        chosen = [self.cleaned_data.get(name) for name in self.computer_names[: players - 1]]
        return [strength for strength in chosen if strength]

    def clean(self):
        data = super().clean()
        self.clean_clock_fields(data)
        if "players" in data and not self.errors:
            try:
                self.engine.validate_options(data["players"], self.options())
            except ValueError as error:
                raise forms.ValidationError(str(error)) from None
            variant_name = getattr(self.engine, "variant_name", None)
            if variant_name and data.get("title") in (self.engine.name, gettext(self.engine.name)):
                # The title left as offered names the map chosen: a King of Saba game
                # is not listed in the lobby as "King of Siam".
                data["title"] = gettext(variant_name(self.options()))
        return data


def add_option_fields(form, engine) -> list[str]:
    """A field ``option_<name>`` for each of the title's options (its
    ``options_schema``); the options' names, in order."""
    names = []
    for spec in engine.options_schema():
        label = _(spec.get("label", spec["name"]))
        help_text = _(spec["help"]) if spec.get("help") else ""
        if spec["type"] == "bool":
            field = forms.BooleanField(label=label, required=False, help_text=help_text)
        else:
            field = forms.ChoiceField(
                label=label,
                help_text=help_text,
                choices=[(value, _(text)) for value, text in spec["choices"]],
            )
        field.initial = spec.get("default")
        form.fields[f"option_{spec['name']}"] = field
        names.append(spec["name"])
    return names
