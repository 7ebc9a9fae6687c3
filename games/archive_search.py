"""The archive's search: finished games by title and map, player or pair of players, the
date they ended, the result for the player, their length and whether they were rated,
sorted four ways and paged by keyset (``games.paging``).

Two shapes of query, each along an index, so that a page costs the same however many
games the site has (``bench/archive_search.py``):

- without a player, the games themselves: ``game_archive`` (newest, oldest, by date),
  ``game_archive_length`` (longest, shortest) and ``game_archive_kind`` (one title);
- with a player, that player's seats (``seat_person_ended``), each joined to its game: a
  game a computer finished for them (they ran out of time) is theirs, and so is one they
  left to a substitute, ended for them when they left. "Against" asks, per seat, whether
  the other player sat in the same game; the result is the seat's, read from the game's
  ``result`` (the winners' seat numbers).
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import (
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Value,
    prefetch_related_objects,
)
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import registry
from .lists import WITH_PLAYERS
from .models import FALSE, Game, Seat
from .paging import BadCursor, KeysetPage, Order, keyset_page
from .titles import variants_of

PER_PAGE = 30
MOST_MOVES = 100_000  # a bound on the length asked for: a bigger number is a typo

SORTS = {
    "newest": _("newest first"),
    "oldest": _("oldest first"),
    "longest": _("longest first"),
    "shortest": _("shortest first"),
}
RESULTS = {"won": _("won"), "lost": _("lost"), "drawn": _("drawn (nobody won)")}


def _orders(by_seat: bool) -> dict[str, Order]:
    if by_seat:  # when the game ended for the player, or its length; the seat's id
        ended, length = "ended_at", "game__move_count"
    else:
        ended, length = "finished_at", "move_count"
    return {
        "newest": Order(ended, descending=True, is_time=True),
        "oldest": Order(ended, descending=False, is_time=True),
        "longest": Order(length, descending=True),
        "shortest": Order(length, descending=False),
    }


class ArchiveSearch(forms.Form):
    """The search form, read from the page's GET parameters."""

    player = forms.CharField(label=_("Player"), max_length=150, required=False)
    against = forms.CharField(label=_("against"), max_length=150, required=False)
    title = forms.ChoiceField(label=_("Game"), required=False)
    map = forms.ChoiceField(label=_("Map"), required=False)
    since = forms.DateField(
        label=_("Ended from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    result = forms.ChoiceField(label=_("Result for the player"), required=False)
    moves_min = forms.IntegerField(
        label=_("At least this many moves"), required=False, min_value=0, max_value=MOST_MOVES
    )
    moves_max = forms.IntegerField(
        label=_("At most this many moves"), required=False, min_value=0, max_value=MOST_MOVES
    )
    rated = forms.ChoiceField(label=_("Rated"), required=False)
    sort = forms.ChoiceField(label=_("Sort"), required=False)
    # The viewer's own games, private ones too (``mine``), and the page's place: kept
    # by the links, not typed.
    mine = forms.BooleanField(required=False, widget=forms.HiddenInput)
    after = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
    before = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, data, viewer=None):
        super().__init__(data)
        self.viewer = viewer
        any_ = [("", gettext("any"))]
        kinds = registry.kinds()
        self.kinds = {kind.slug: kind for kind in kinds}
        self.maps = {variant.key: variant for kind in kinds for variant in variants_of(kind)}
        self.fields["title"].choices = any_ + [(k.slug, k.name) for k in kinds]
        self.fields["map"].choices = any_ + [(key, v.name) for key, v in self.maps.items()]
        self.fields["result"].choices = any_ + list(RESULTS.items())
        rated = [("yes", gettext("rated")), ("no", gettext("unrated"))]
        self.fields["rated"].choices = any_ + rated
        self.fields["sort"].choices = list(SORTS.items())

    @property
    def listed(self) -> list:
        """The fields the form shows in its grid (the players above it, the rest hidden)."""
        names = ("title", "map", "result", "rated", "since", "until", "moves_min", "moves_max")
        return [self[name] for name in (*names, "sort")]

    @property
    def narrowed(self) -> bool:
        """A field of the grid is set or wrong: the page shows the grid open."""
        return any(self.data.get(field.name) or field.errors for field in self.listed)

    @property
    def own(self) -> bool:
        """The viewer's own games (``?mine=1``), private ones included."""
        return bool(self.data.get("mine")) and bool(self.viewer and self.viewer.is_authenticated)

    def _player(self, field: str):
        name = self.cleaned_data.get(field, "").strip()
        if not name:
            return None
        found = get_user_model().objects.filter(username=name, is_active=True).first()
        if found is None:
            raise forms.ValidationError(
                gettext("There is no player named “%(name)s”.") % {"name": name}
            )
        return found

    def clean_player(self):
        if self.own:
            return self.viewer
        return self._player("player")

    def clean_against(self):
        return self._player("against")

    def clean(self):
        data = super().clean()
        player = data.get("player")
        if data.get("against") and not self.errors.get("player"):
            if player is None:
                self.add_error(
                    "against", gettext("Name a player to search their games against another.")
                )
            elif data["against"] == player:
                self.add_error("against", gettext("Name two different players."))
        if data.get("result") and player is None and not self.errors.get("player"):
            self.add_error("result", gettext("A result is a player's: name the player."))
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            self.add_error("until", gettext("The end of the range comes before its start."))
        low, high = data.get("moves_min"), data.get("moves_max")
        if low is not None and high is not None and low > high:
            self.add_error("moves_max", gettext("The most moves are fewer than the fewest."))
        chosen_map, title = data.get("map"), data.get("title")
        if chosen_map and title and not chosen_map.startswith(title + "."):
            self.add_error("map", gettext("That map belongs to another game."))
        if data.get("after") and data.get("before"):
            raise forms.ValidationError(_broken_link())
        cursor = data.get("after") or data.get("before")
        if cursor:
            try:
                self.order().parse(cursor)
            except BadCursor:
                raise forms.ValidationError(_broken_link()) from None
        return data

    @property
    def sorting(self) -> str:
        return (self.cleaned_data.get("sort") if self.is_bound else None) or "newest"

    def order(self) -> Order:
        return _orders(self.cleaned_data.get("player") is not None)[self.sorting]

    def page(self) -> KeysetPage:
        """The page of games asked for (the form must be valid), each with its seats and
        players; for a player's search its rows are their seats, ``.games`` the games."""
        data = self.cleaned_data
        player = data.get("player")
        rows = self._games() if player is None else self._seats(player)
        page = keyset_page(
            rows, self.order(), PER_PAGE, after=data.get("after"), before=data.get("before")
        )
        page.games = page.object_list if player is None else [s.game for s in page.object_list]
        prefetch_related_objects(page.games, WITH_PLAYERS)
        return page

    def _games(self) -> QuerySet[Game]:
        # Every game that ended after its start, and only such a game, has a finished_at.
        games = Game.objects.filter(finished_at__isnull=False, started_at__isnull=False)
        games = games.filter(private=FALSE)
        data = self.cleaned_data
        if data.get("since"):
            games = games.filter(finished_at__gte=_day_start(data["since"]))
        if data.get("until"):
            games = games.filter(finished_at__lt=_day_start(data["until"], 1))
        return games.filter(self._of_game(""))

    def _seats(self, player) -> QuerySet[Seat]:
        # Seat.every: a game they left to a substitute is theirs too, ended when they left;
        # in the archive once the game itself is over.
        seats = Seat.every.filter(
            person=player,
            ended_at__isnull=False,
            game__started_at__isnull=False,
            game__finished_at__isnull=False,
        ).select_related("game")
        if not self.own:
            seats = seats.filter(game__private=FALSE)
        data = self.cleaned_data
        if data.get("since"):
            seats = seats.filter(ended_at__gte=_day_start(data["since"]))
        if data.get("until"):
            seats = seats.filter(ended_at__lt=_day_start(data["until"], 1))
        if data.get("against"):
            met = Seat.every.filter(game_id=OuterRef("game_id"), person=data["against"])
            seats = seats.filter(Exists(met))
        if data.get("result"):
            seats = _with_result(seats, data["result"])
        return seats.filter(self._of_game("game__"))

    def _of_game(self, prefix: str) -> Q:
        """What the search asks of the game itself, its lookups under ``prefix``."""
        data, chosen = self.cleaned_data, Q()
        if data.get("title"):
            chosen &= Q(kind=data["title"])
        if data.get("map"):
            chosen &= self.maps[data["map"]].games
        if data.get("moves_min") is not None:
            chosen &= Q(move_count__gte=data["moves_min"])
        if data.get("moves_max") is not None:
            chosen &= Q(move_count__lte=data["moves_max"])
        if data.get("rated"):
            # Rated: finished (not aborted) with people only, from first move to last
            # (a computer player at any time made it practice: community.scoring).
            rated = Q(status=Game.Status.FINISHED, computer_played=FALSE, rated=True)
            chosen &= rated if data["rated"] == "yes" else ~rated
        return _prefixed(chosen, prefix)

    def query_without_page(self) -> str:
        """The search's parameters for the pager's links (without the page's place)."""
        kept = self.data.copy()
        for name in ("after", "before"):
            kept.pop(name, None)
        return kept.urlencode()


def _broken_link() -> str:
    return gettext("This link to a page of the archive is broken: start again from the first page.")


def _day_start(day: datetime.date, later: int = 0) -> datetime.datetime:
    """The start of ``day`` (plus ``later`` days) in the reader's time zone."""
    moment = datetime.datetime.combine(day + datetime.timedelta(days=later), datetime.time())
    return timezone.make_aware(moment)


def _prefixed(condition: Q, prefix: str) -> Q:
    """``condition`` on the game, asked through a relation to it (``game__``)."""
    if not prefix:
        return condition
    copy = Q()
    copy.connector, copy.negated = condition.connector, condition.negated
    copy.children = [
        _prefixed(child, prefix) if isinstance(child, Q) else (prefix + child[0], child[1])
        for child in condition.children
    ]
    return copy


def _with_result(seats: QuerySet[Seat], result: str) -> QuerySet[Seat]:
    """The seats whose game ended so for their player: ``won`` (their seat among the
    winners), ``drawn`` (a finished game nobody won, played to its end by them) or
    ``lost`` (every other finished game: lost, or they ran out of time).

    ``result["winners"]`` is a short list of seat numbers; each place of it is compared
    with the seat's number (-1 where the list is shorter), which every database can do
    without a JSON function of its own."""
    places = max(kind.engine.max_players for kind in registry.kinds())
    names = [f"winner_{n}" for n in range(places)]
    winners = KeyTransform("winners", "game__result")
    seats = seats.alias(
        **{
            name: Coalesce(Cast(KeyTextTransform(str(n), winners), IntegerField()), Value(-1))
            for n, name in enumerate(names)
        }
    )
    played_on = Q(stood_in_for__isnull=True, vacated=False)  # the seat's player to the end
    among = Q()
    for name in names:
        among |= Q(**{name: F("number")})
    won = played_on & among
    drawn = played_on & Q(winner_0=-1)
    seats = seats.filter(game__status=Game.Status.FINISHED)
    if result == "won":
        return seats.filter(won)
    if result == "drawn":
        return seats.filter(drawn)
    return seats.exclude(won).exclude(drawn)
