"""A player's statistics per title for their profile, read in rows per title and per
opponent: what it costs does not grow with the number of games they played.

The counts are kept up as games end (``community.scoring``): ``PlayerStats`` holds the
record, the median time to move and the sum of the title's score; ``Opponent`` holds,
for each person a player met, how often and how often they won. The profile reads the
first in one query (one row per title) and the favourite opponents in one more: the
most met per title, picked by the database (a window over the index
``opponent_most_met``, user, kind, most games first).
"""

from __future__ import annotations

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from .models import Opponent

FAVOURITES = 3


def favourite_opponents(player) -> dict[str, list[Opponent]]:
    """The FAVOURITES opponents ``player`` met most in each title (ties: who won more
    against them, then the name), with their rows, in one query."""
    ranked = (
        Opponent.objects.filter(user=player, opponent__is_active=True)
        .annotate(
            place=Window(
                RowNumber(),
                partition_by=[F("kind")],
                order_by=[F("games").desc(), F("won").desc(), F("opponent_id").asc()],
            )
        )
        .filter(place__lte=FAVOURITES)
        .select_related("opponent")
        # What the profile draws: the whole player rows cost more to convert than to read.
        .only(
            "kind",
            "games",
            "won",
            "opponent__username",
            "opponent__display_name",
            "opponent__is_bot",
        )
        .order_by("kind", "place")
    )
    found: dict[str, list[Opponent]] = {}
    for row in ranked:
        found.setdefault(row.kind, []).append(row)
    return found


def average(row, kind) -> str:
    """The average score as the profile says it ("12.5 points"), "" for none."""
    value = row.average_points
    if value is None or kind is None or not kind.points_label:
        return ""
    return _("%(n)s %(what)s") % {"n": number_format(value, 1), "what": _(kind.points_label)}
