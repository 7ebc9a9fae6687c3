"""What the community adds to the frame's pages (``games.extend``): rematch offers in
the menu's badge and at the top of My games; agreed cancellation (the request at the top
of a game, the vote at its foot), substitutes and the rematch on the game page; each
player's record beside their name in the lists."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from games import extend, facts, registry
from games.models import Game, Seat

from . import ratings, rematch
from .models import CancelVote, PlayerStats, Rematch, RematchAnswer


def _badge_sql() -> str:
    """Pending rematch offers of games the user ended in the last REMATCH_DAYS that they
    have not answered (not those of a seat they left to a substitute)."""
    seats, rematches, answers = (
        Seat._meta.db_table,
        Rematch._meta.db_table,
        RematchAnswer._meta.db_table,
    )
    return (
        f"(SELECT COUNT(*) FROM {rematches} b5 WHERE b5.status = %(community_offered)s"
        f" AND b5.game_id IN (SELECT b6.game_id FROM {seats} b6"
        f" WHERE b6.person_id = %(badge_user)s AND b6.ended_at > %(community_since)s"
        f" AND NOT b6.vacated)"
        f" AND b5.id NOT IN (SELECT b7.rematch_id FROM {answers} b7"
        f" WHERE b7.user_id = %(badge_user)s))"
    )


def _badge_params() -> dict:
    return {
        "community_offered": Rematch.Status.PENDING,
        "community_since": timezone.now() - timedelta(days=settings.REMATCH_DAYS),
    }


def _cancel_votes(context) -> list[int]:
    """The users who agreed to cancel the running game (the header and the panel ask)."""
    page = context["page"]
    if "cancel_votes" not in page.memo:
        votes = []
        if page.game.status == Game.Status.ACTIVE and facts.fact(context, "community.votes"):
            votes = list(page.game.cancel_votes.values_list("user_id", flat=True))
        page.memo["cancel_votes"] = votes
    return page.memo["cancel_votes"]


def _cancel_asked(context) -> dict | None:
    """The players who asked to cancel the game, while the viewer has not agreed: said
    at the top of the page, where the answer (at its foot) would be missed."""
    page = context["page"]
    if page.viewer is None or page.history:
        return None
    votes = _cancel_votes(context)
    mine = next((s.user_id for s in page.seats if s.number == page.viewer), None)
    if not votes or mine in votes:
        return None
    return {"cancel_asked_by": [s.user.name for s in page.seats if s.user_id in votes]}


def _panel(context) -> dict:
    """Agreed cancellation, substitutes and rematch, for the game page."""
    game: Game = context["game"]
    page = context["page"]
    user = context["request"].user
    seated = page.viewer is not None
    names = {seat.user_id: seat.user.name for seat in page.seats}
    # A player a computer stood in for at the end is still asked for a rematch.
    stood_in = {s.stood_in_for_id: s.stood_in_for.name for s in page.seats if s.stood_in_for}
    names.update(stood_in)
    panel = {"seated": seated, "user": user}
    if game.status == Game.Status.ACTIVE:
        panel["open_seats"] = page.open_seats
        panel["left_here"] = bool(page.open_seats) and not seated and game.left_by(user)
        votes = _cancel_votes(context)
        panel["cancel_names"] = [names[uid] for uid in votes if uid in names]
        panel["my_cancel_vote"] = user.is_authenticated and user.pk in votes
    elif game.status == Game.Status.FINISHED:
        panel["seated"] = seated or (user.is_authenticated and user.pk in stood_in)
        offer = None
        if facts.fact(context, "community.rematch") is not None:  # most games: none offered
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


def _rematch_key_parts() -> None:
    """What a finished game's page shows of its rematch (``_panel``), in the page's key
    (``games.pagecache``). An answer moves the game's version too; the key holds the
    rows anyway, so a page never outlives what its panel says."""
    rematches, answers = Rematch._meta.db_table, RematchAnswer._meta.db_table
    extend.add_key_part(
        f"(SELECT MAX(id) FROM {rematches} WHERE game_id = %(game)s)", name="community.rematch"
    )
    # One offer per game (a one-to-one): its state and the game it started.
    extend.add_key_part(f"(SELECT MAX(status) FROM {rematches} WHERE game_id = %(game)s)")
    extend.add_key_part(f"(SELECT MAX(new_game_id) FROM {rematches} WHERE game_id = %(game)s)")
    # Answers are added; one is changed only by a refusal, which declines the offer.
    for accepted in ("", " AND a.accepted"):
        extend.add_key_part(
            f"(SELECT COUNT(*) FROM {answers} a JOIN {rematches} r ON r.id = a.rematch_id"
            f" WHERE r.game_id = %(game)s{accepted})"
        )
    # Whether a rematch may still be arranged (``rematch.is_open``: the clock alone closes
    # it) and, while it may, the days it is open for, which the panel's date is drawn from.
    extend.add_key_part(
        "(SELECT CASE WHEN g.finished_at > %(community_rematch_from)s"
        f" THEN %(community_rematch_days)s ELSE 0 END FROM {Game._meta.db_table} g"
        " WHERE g.id = %(game)s)",
        _rematch_params,
    )


def _rematch_params() -> dict:
    days = settings.REMATCH_DAYS
    return {
        "community_rematch_from": timezone.now() - timedelta(days=days),
        "community_rematch_days": days,
    }


def _pending_rematches(context) -> dict:
    return {"rematches": rematch.pending_for(context["user"])}


def _stats_for(games: list[Game]) -> dict[str, PlayerStats | None]:
    """The stats of every player of ``games`` for the game's title, in one query, keyed
    "user id:kind" (None: a player with no record there yet). Computer players have
    none: their record says nothing a player could go by."""
    pairs = {
        (seat.user_id, game.kind)
        for game in games
        for seat in game.seats.all()
        if not seat.user.is_bot
    }
    if not pairs:
        return {}
    found: dict[str, PlayerStats | None] = {f"{uid}:{kind}": None for uid, kind in pairs}
    rows = PlayerStats.objects.filter(
        user_id__in={uid for uid, _ in pairs}, kind__in={kind for _, kind in pairs}
    )
    found.update(
        {f"{row.user_id}:{row.kind}": row for row in rows if f"{row.user_id}:{row.kind}" in found}
    )
    return found


def _record_badge(stats: dict, user_id: int, kind: str) -> str:
    """A player's record beside their name in a list (``community/_badge.html``): every
    player but a computer has one, "new" until their first game of the title ends. The
    rating names its title: a King of Saba game is rated as King of Siam."""
    key = f"{user_id}:{kind}"
    if key not in stats:
        return ""
    record = stats[key]
    if record is not None and not record.ended:
        record = None
    try:
        title = registry.get(kind).name
    except KeyError:  # a title no longer served
        title = kind
    return render_to_string("community/_badge.html", {"stats": record, "title": title})


def register() -> None:
    extend.add_badge_part(_badge_sql(), _badge_params)
    votes = CancelVote._meta.db_table
    # Votes are only ever added or withdrawn (deleted): their count and highest id
    # say whether the set changed.
    extend.add_key_part(
        f"(SELECT COUNT(*) FROM {votes} WHERE game_id = %(game)s)", name="community.votes"
    )
    extend.add_key_part(f"(SELECT MAX(id) FROM {votes} WHERE game_id = %(game)s)")
    _rematch_key_parts()
    extend.add_part("game-header", "community/_cancel_asked.html", _cancel_asked)
    extend.add_part("game-panel", "community/_game_panel.html", _panel)
    extend.add_part("my-games", "community/_pending_rematches.html", _pending_rematches, order=20)
    extend.add_name_mark(_stats_for, _record_badge)
    extend.set_ratings(_ratings)


def _ratings(kind: str, user_ids: list[int]) -> dict[int, int]:
    """The players' ratings in ``kind`` (``games.extend.ratings``); a player who has
    none yet has a newcomer's."""
    found = dict(
        PlayerStats.objects.filter(kind=kind, user_id__in=user_ids).values_list("user_id", "rating")
    )
    newcomer = ratings.shown_rating(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    return {uid: found.get(uid, newcomer) for uid in user_ids}
