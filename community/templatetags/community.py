from django import template
from django.utils.translation import gettext as _

from games import registry
from games.models import Game

from .. import charts, rematch, statistics
from ..models import PlayerStats, RatingChange

register = template.Library()

CHART_GAMES = 100


@register.filter
def rematch_until(game: Game):
    """Until when a rematch of the finished ``game`` can be arranged."""
    return rematch.open_until(game)


@register.inclusion_tag("community/_pending_rematches.html")
def pending_rematches(user) -> dict:
    return {"rematches": rematch.pending_for(user)}


@register.inclusion_tag("community/_player_summary.html")
def player_summary(player) -> dict:
    """Rating, record, scores, favourite opponents and rating history per title, for the
    profile: three queries, each reading rows per title (and per opponent), never per
    game (``community.statistics``)."""
    rows = list(PlayerStats.objects.filter(user=player).order_by("kind"))
    opponents = statistics.favourite_opponents(player)
    history: dict[str, list[int]] = {}
    changes = RatingChange.objects.filter(user=player).order_by("created_at", "pk")
    for kind, before, after in changes.values_list("kind", "before", "after"):
        history.setdefault(kind, [before]).append(after)
    # The chart shows the latest games; a long career would only crowd the line.
    history = {kind: values[-CHART_GAMES:] for kind, values in history.items()}
    kinds = {kind.slug: kind for kind in registry.kinds()}
    return {
        "player": player,
        "rows": [
            (
                row,
                kinds[row.kind].name if row.kind in kinds else row.kind,
                charts.rating_chart(history.get(row.kind, [])),
                statistics.average(row, kinds.get(row.kind)),
                opponents.get(row.kind, []),
            )
            for row in rows
        ],
    }


@register.filter
def percent(value: int | None) -> str:
    """A share in the reader's way of writing it: "95%", "95 %" in German."""
    return "" if value is None else _("%(n)s%%") % {"n": value}


@register.filter
def short_duration(seconds: int | None) -> str:
    """A time to move as a lobby line can hold it: "40 s", "12 min", "5 h", "2 d"."""
    if seconds is None:
        return ""
    if seconds < 60:
        return _("%(n)d s") % {"n": seconds}
    if seconds < 3600:
        return _("%(n)d min") % {"n": seconds // 60}
    if seconds < 2 * 86400:
        return _("%(n)d h") % {"n": round(seconds / 3600)}
    return _("%(n)d d") % {"n": round(seconds / 86400)}
