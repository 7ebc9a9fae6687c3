"""The lobby's lists: open games (filtered), and running public games to watch."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Q, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from games.forms import days_label
from games.models import FALSE, Game

WATCH_PER_PAGE = 20


@dataclass(frozen=True)
class Title:
    """One name players know a game by: a kind, or one variant of a kind (King of Saba)."""

    key: str
    name: str
    games: Q


def titles() -> list[Title]:
    found = []
    for kind in registry.kinds():
        variants = _variants(kind.engine)
        if not variants:
            found.append(Title(kind.slug, gettext(kind.name), Q(kind=kind.slug)))
        for option, value, name, default in variants:
            chosen = Q(**{f"options__{option}": value})
            if default:
                chosen |= ~Q(options__has_key=option)
            found.append(Title(f"{kind.slug}.{value}", gettext(name), Q(kind=kind.slug) & chosen))
    return found


def _variants(engine) -> list[tuple[str, str, str, bool]]:
    """The choices of the option that gives a game its own name (the map of King of Siam)."""
    variant_name = getattr(engine, "variant_name", None)
    if variant_name is None:
        return []
    for spec in engine.options_schema():
        if spec["type"] != "choice":
            continue
        names = [(value, variant_name({spec["name"]: value})) for value, _text in spec["choices"]]
        if len({name for _value, name in names}) > 1:
            default = spec.get("default")
            return [(spec["name"], value, name, value == default) for value, name in names]
    return []


class LobbyFilter(forms.Form):
    title = forms.ChoiceField(label=_("Game"), required=False)
    players = forms.TypedChoiceField(label=_("Players"), coerce=int, required=False)
    time_limit = forms.TypedChoiceField(label=_("Time per move"), coerce=int, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        everything = [("", gettext("any"))]
        self.titles = {title.key: title for title in titles()}
        self.fields["title"].choices = everything + [(t.key, t.name) for t in self.titles.values()]
        counts = sorted(
            {
                n
                for k in registry.kinds()
                for n in range(k.engine.min_players, k.engine.max_players + 1)
            }
        )
        self.fields["players"].choices = everything + [(n, str(n)) for n in counts]
        self.fields["time_limit"].choices = everything + [
            (d, days_label(d)) for d in settings.GAME_TIME_LIMIT_DAYS
        ]

    def apply(self, games: QuerySet) -> QuerySet:
        if not self.is_valid():
            return games
        data = self.cleaned_data
        if data.get("title"):
            games = games.filter(self.titles[data["title"]].games)
        if data.get("players"):
            games = games.filter(players=data["players"])
        if data.get("time_limit"):
            # A game on banks keeps a time per move it does not use.
            games = games.filter(time_limit_days=data["time_limit"], bank_start__isnull=True)
        return games

    @property
    def active(self) -> bool:
        return self.is_valid() and any(self.cleaned_data.values())


def open_games(chosen: LobbyFilter) -> QuerySet:
    games = Game.objects.filter(status=Game.Status.OPEN, private=FALSE)
    return chosen.apply(games).prefetch_related("seats__user").order_by("-created_at")[:50]


def substitute_games() -> QuerySet:
    return (
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            private=FALSE,
            timeout_policy=Game.TimeoutPolicy.SUBSTITUTE,
        )
        .annotate(taken=Count("seats", filter=Q(seats__vacated=False)))
        .filter(taken__lt=F("players"))
        .prefetch_related("seats__user")
        .order_by("-created_at")[:50]
    )


def games_to_watch(chosen: LobbyFilter, page_number) -> Page:
    """Running public games, the one with the latest move first (``last_move_at``,
    kept on the game row, so the list reads no moves and follows an index)."""
    games = chosen.apply(Game.objects.filter(status=Game.Status.ACTIVE, private=FALSE))
    games = games.prefetch_related("seats__user").order_by("-last_move_at", "-pk")
    return Paginator(games, WATCH_PER_PAGE).get_page(page_number)
