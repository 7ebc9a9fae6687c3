"""The lobby's lists: open games (filtered), and running public games to watch."""

from __future__ import annotations

import hashlib

from django import forms
from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from games.forms import days_label
from games.models import FALSE, Game
from games.titles import titles

WATCH_PER_PAGE = 20


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


def watch_section(request, chosen: LobbyFilter, filter_query: str, page_number) -> SafeString:
    """The list of running games to watch as the lobby draws it, kept in the cache for
    ``LOBBY_WATCH_SECONDS`` per language, time zone, filter and page: it is the same
    for every viewer, and drawing its twenty games with their players' marks was most
    of the lobby's time (``bench/capacity.py``). A move or a player coming online shows
    there that much later."""
    seconds = settings.LOBBY_WATCH_SECONDS
    parts = [translation.get_language(), timezone.get_current_timezone_name(), filter_query]
    key = "lobby-watch:" + hashlib.sha256(f"{parts}:{page_number}".encode()).hexdigest()[:32]
    if seconds:
        found = cache.get(key)
        if found is not None:
            return mark_safe(found)  # drawn by the template below
    context = {
        "filter": chosen,
        "filter_query": filter_query,
        "watch": games_to_watch(chosen, page_number),
    }
    drawn = render_to_string("lobby/home.html#watch", context, request)
    if seconds:
        cache.set(key, drawn, seconds)
    return drawn
