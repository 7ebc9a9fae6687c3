"""The ladder: join a title's ladder, say how many ladder games you want running (K),
and get a new one against someone near your rating whenever you have fewer."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from games import clock, extend, play, registry
from games.models import Game, Seat

from . import queue
from .models import Ladder, LadderGame, LadderPlayer
from .pairing import ladder as pairing


class LadderError(play.PlayError):
    pass


def join(ladder_id: int, user, games_at_once: int) -> LadderPlayer:
    """Join (or come back, or change K): the next pairing run looks for opponents."""
    play.refuse_blocked(user)
    if user.is_bot:
        raise LadderError(_("Computer players do not play on ladders."), 403)
    if not 1 <= games_at_once <= LadderPlayer.MOST_GAMES:
        raise LadderError(
            _("Choose between 1 and %(n)d games at once.") % {"n": LadderPlayer.MOST_GAMES}
        )
    ladder = Ladder.objects.filter(pk=ladder_id, active=True).first()
    if ladder is None:
        raise LadderError(_("There is no such ladder."), 404)
    entry, _created = LadderPlayer.objects.update_or_create(
        ladder=ladder, user=user, defaults={"games_at_once": games_at_once, "active": True}
    )
    queue.after_commit(queue.PAIR_LADDER, ladder.pk)
    return entry


def leave(ladder_id: int, user) -> None:
    """No new ladder games; the running ones are played to their end."""
    updated = LadderPlayer.objects.filter(ladder_id=ladder_id, user=user, active=True).update(
        active=False
    )
    if not updated:
        raise LadderError(_("You are not on this ladder."), 409)


def running_counts(ladder: Ladder, user_ids) -> dict[int, int]:
    rows = (
        Seat.objects.filter(
            person_id__in=user_ids,
            game__ladder_game__ladder=ladder,
            game__status=Game.Status.ACTIVE,
        )
        .values("person_id")
        .annotate(n=Count("id"))
    )
    return {row["person_id"]: row["n"] for row in rows}


def _opponents(ladder: Ladder, user_ids) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Per player: the opponents of their running ladder games, and of their latest one."""
    playing: dict[int, set[int]] = {uid: set() for uid in user_ids}
    latest: dict[int, tuple[int, set[int]]] = {}
    games = (
        LadderGame.objects.filter(ladder=ladder, game__seats__person_id__in=user_ids)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("-game_id")
        .distinct()
    )
    for row in games[:2000]:
        people = {s.person_id for s in row.game.seats.all()}
        for uid in people & set(user_ids):
            others = people - {uid}
            if row.game.status == Game.Status.ACTIVE:
                playing[uid] |= others
            if uid not in latest:
                latest[uid] = (row.game_id, others)
    return playing, {uid: others for uid, (_g, others) in latest.items()}


def pair(ladder_id: int) -> list[Game]:
    """One pairing run of a ladder, claimed exactly once (its ``step``): every player
    with fewer than K running ladder games gets at most one new game, against whoever
    seeks one and is nearest in rating (``pairing.ladder``)."""
    with transaction.atomic():
        ladder = Ladder.objects.filter(pk=ladder_id, active=True).first()
        if ladder is None:
            return []
        if Ladder.objects.filter(pk=ladder.pk, step=ladder.step).update(step=ladder.step + 1) != 1:
            return []
        entries = list(
            LadderPlayer.objects.filter(
                ladder=ladder, active=True, user__is_active=True, user__is_bot=False
            ).select_related("user")
        )
        ids = [e.user_id for e in entries]
        running = running_counts(ladder, ids)
        seekers = [e for e in entries if running.get(e.user_id, 0) < e.games_at_once]
        if len(seekers) < ladder.table_size:
            return []
        rating = extend.ratings(ladder.kind, [e.user_id for e in seekers])
        playing, last = _opponents(ladder, [e.user_id for e in seekers])
        tables = pairing.pair(
            [
                pairing.Seeker(
                    e.user_id,
                    rating[e.user_id],
                    frozenset(playing.get(e.user_id, ())),
                    frozenset(last.get(e.user_id, ())),
                )
                for e in seekers
            ],
            ladder.table_size,
        )
        users = {e.user_id: e.user for e in seekers}
        kind = registry.get(ladder.kind)
        made = []
        for table in tables:
            seating = list(table)
            # Who sits first is drawn, from the ladder's step (the same run, the same draw).
            random.Random(f"ladder:{ladder.pk}:{ladder.step}:{seating}").shuffle(seating)
            game = play.create_seated_game(
                kind,
                [users[uid] for uid in seating],
                title=ladder.name,
                options=ladder.options,
                time_limit_days=ladder.time_limit_days,
                timeout_policy=ladder.timeout_policy,
                pace=clock.pace_for(ladder.pace),
            )
            LadderGame.objects.create(ladder=ladder, game=game)
            made.append(game)
        return made


def ranking(ladder: Ladder) -> list[dict]:
    """The ladder's players by rating in its title, with their ladder games."""
    entries = list(LadderPlayer.objects.filter(ladder=ladder).select_related("user"))
    ids = [e.user_id for e in entries]
    rating = extend.ratings(ladder.kind, ids)
    finished = Seat.every.filter(
        person_id__in=ids, game__ladder_game__ladder=ladder, game__status=Game.Status.FINISHED
    )
    played = dict(
        finished.values("person_id").annotate(n=Count("id")).values_list("person_id", "n")
    )
    won = {}
    for seat in finished.select_related("game"):
        winners = (seat.game.result or {}).get("winners") or []
        if seat.number in winners and seat.stood_in_for_id is None and not seat.vacated:
            won[seat.person_id] = won.get(seat.person_id, 0) + 1
    running = running_counts(ladder, ids)
    rows = [
        {
            "user": e.user,
            "rating": rating[e.user_id],
            "active": e.active,
            "games_at_once": e.games_at_once,
            "running": running.get(e.user_id, 0),
            "played": played.get(e.user_id, 0),
            "won": won.get(e.user_id, 0),
        }
        for e in entries
    ]
    rows.sort(key=lambda r: (-r["rating"], -r["won"], r["user"].name.lower()))
    return rows


def ensure_defaults() -> list[Ladder]:
    """A ladder for every registered title that has none (two players where the title
    allows it): every title can be climbed from the day it is installed."""
    made = []
    for kind in registry.kinds():
        if Ladder.objects.filter(kind=kind.slug).exists():
            continue
        size = (
            2
            if kind.engine.min_players <= 2 <= kind.engine.max_players
            else (kind.engine.min_players)
        )
        made.append(Ladder.objects.create(name=kind.engine.name, kind=kind.slug, table_size=size))
    return made


def entries_of(user) -> list[LadderPlayer]:
    return list(LadderPlayer.objects.filter(user=user, active=True).select_related("ladder"))
