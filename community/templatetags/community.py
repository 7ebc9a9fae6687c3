from django import template
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games import registry
from games.models import Game

from .. import charts, rematch
from ..models import PlayerStats, RatingChange, Rematch

register = template.Library()

CHART_GAMES = 100


@register.simple_tag
def stats_for(items) -> dict[str, PlayerStats]:
    """The stats of every player in ``items`` (games, or seats of games) for the game's
    title, in one query, keyed "user id:kind" for ``player_badge``. Computer players
    have none: their record says nothing a player could go by."""
    games = [getattr(item, "game", item) for item in items]
    pairs = {
        (seat.user_id, game.kind)
        for game in games
        for seat in game.seats.all()
        if not seat.user.is_bot
    }
    if not pairs:
        return {}
    rows = PlayerStats.objects.filter(
        user_id__in={uid for uid, _ in pairs}, kind__in={kind for _, kind in pairs}
    )
    return {f"{row.user_id}:{row.kind}": row for row in rows}


@register.simple_tag
def player_badge(stats: dict, user_id: int, kind: str) -> str:
    """A player's record beside their name in a list (``community/_badge.html``), drawn
    only for a player who has one: most seats of a long list have none to show, and a
    template rendered per seat was a quarter of the archive page's time."""
    record = stats.get(f"{user_id}:{kind}")
    if record is None or not record.ended:
        return ""
    return render_to_string("community/_badge.html", {"stats": record})


@register.inclusion_tag("community/_game_panel.html", takes_context=True)
def game_panel(context) -> dict:
    """Agreed cancellation, substitutes and rematch, for the game page."""
    game: Game = context["game"]
    page = context["page"]
    request = context["request"]
    user = request.user
    seated = page.viewer is not None
    names = {seat.user_id: seat.user.name for seat in page.seats}
    # A player a computer stood in for at the end is still asked for a rematch.
    stood_in = {s.stood_in_for_id: s.stood_in_for.name for s in page.seats if s.stood_in_for}
    names.update(stood_in)
    panel = {"game": game, "page": page, "seated": seated, "user": user}
    if game.status == Game.Status.ACTIVE:
        panel["open_seats"] = page.open_seats
        panel["left_here"] = bool(page.open_seats) and not seated and game.left_by(user)
        votes = page.cancel_votes
        panel["cancel_names"] = [names[uid] for uid in votes if uid in names]
        panel["my_cancel_vote"] = user.is_authenticated and user.pk in votes
    elif game.status == Game.Status.FINISHED:
        panel["seated"] = seated or (user.is_authenticated and user.pk in stood_in)
        offer = Rematch.objects.filter(game=game).select_related("new_game").first()
        panel["rematch"] = offer
        panel["rematch_open"] = rematch.is_open(game)
        if offer is not None:
            answers = {a.user_id: a.accepted for a in offer.answers.all()}
            accepted = [uid for uid, ok in answers.items() if ok and uid in names]
            panel["accepted_names"] = [names[uid] for uid in accepted]
            refused = [uid for uid, ok in answers.items() if not ok and uid in names]
            panel["declined_by"] = names[refused[0]] if refused else ""
            panel["my_answer"] = answers.get(user.pk) if user.is_authenticated else None
    return panel


@register.filter
def rematch_until(game: Game):
    """Until when a rematch of the finished ``game`` can be arranged."""
    return rematch.open_until(game)


@register.inclusion_tag("community/_pending_rematches.html")
def pending_rematches(user) -> dict:
    return {"rematches": rematch.pending_for(user)}


@register.inclusion_tag("community/_player_summary.html")
def player_summary(player) -> dict:
    """Rating, record and rating history per title, for the profile."""
    rows = list(PlayerStats.objects.filter(user=player).order_by("kind"))
    history: dict[str, list[int]] = {}
    changes = RatingChange.objects.filter(user=player).order_by("created_at", "pk")
    for kind, before, after in changes.values_list("kind", "before", "after"):
        history.setdefault(kind, [before]).append(after)
    # The chart shows the latest games; a long career would only crowd the line.
    history = {kind: values[-CHART_GAMES:] for kind, values in history.items()}
    titles = {kind.slug: kind.name for kind in registry.kinds()}
    return {
        "rows": [
            (row, titles.get(row.kind, row.kind), charts.rating_chart(history.get(row.kind, [])))
            for row in rows
        ]
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
