"""Ratings and records, brought up to date once per ended game.

Runs inside the transaction that ends the game (a ``game_finished`` receiver),
so the scores commit or roll back with the result. The ``ScoredGame`` row is
the claim: it can be inserted once per game, so a second finish (a racing
sweep, a signal sent twice) scores nothing.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from games.models import Game

from . import ratings
from .models import Opponent, PlayerStats, RatingChange, ScoredGame, SeatRecord

# The median time to move looks at this many of a player's latest games per title.
MEDIAN_GAMES = 50


def score(game: Game) -> bool:
    """Rate (finished games only) and record an ended game; False if it was done already."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED) or not game.was_played:
        return False
    # A game against a computer player is practice: it counts for nobody's rating.
    # So is one where a computer stood in for a while, even if its player came back.
    rated = (
        game.status == Game.Status.FINISHED
        and not game.computer_played
        and game.rated
        and not game.seats.filter(user__is_bot=True).exists()
    )
    try:
        with transaction.atomic():
            ScoredGame.objects.create(game=game, rated=rated)
    except IntegrityError:
        return False
    seats = list(game.seats.select_related("user").order_by("number"))
    if not seats:
        return True
    result = game.result or {}
    winners = set(result.get("winners") or [])
    late = set((result.get("details") or {}).get("timed_out") or [])
    times = move_seconds(game, sorted(late), game.finished_at)
    points = seat_points(game)
    # A computer still standing in for a player who ran out of time: the game ended
    # for that player too, on time lost, whatever the computer made of the seat (whose
    # moves since are the computer's: none of them is the player's time).
    stood_in = [seat for seat in seats if seat.stood_in_for_id is not None]
    SeatRecord.objects.bulk_create(
        [
            _record(
                game,
                seat.user_id,
                seat.number,
                counted=rated,
                won=rated and seat.number in winners,
                timed_out=seat.number in late,
                seconds=_seconds_since(times.get(seat.number, []), seat.joined_at),
                points=points[seat.number] if points and seat.number < len(points) else None,
            )
            for seat in seats
        ]
        + [
            # The computer played the seat to its end: its score is not the player's.
            _record(game, seat.stood_in_for_id, seat.number, rated, False, True, [])
            for seat in stood_in
        ],
        # A player who left a seat and came back as a substitute has a record already.
        ignore_conflicts=True,
    )
    people = [seat.user_id for seat in seats] + [seat.stood_in_for_id for seat in stood_in]
    stats = _locked_stats(people, game.kind)
    if rated:
        _rate(game, seats, result, stats)
    for user_id, row in stats.items():
        _refresh_record(row, user_id, game.kind)
    _count_meetings(game, seats, winners if game.status == Game.Status.FINISHED else set())
    return True


def seat_points(game: Game) -> list[int] | None:
    """Each seat's score by the title's own count (``GameKind.points``), or None."""
    count = game.kind_info.points
    if count is None or game.status != Game.Status.FINISHED or not game.result:
        return None
    try:
        found = count(game.result)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None  # a result of an older shape: no score rather than a failed end
    return [int(p) for p in found] if found else None


def _count_meetings(game: Game, seats, winners: set[int]) -> None:
    """Each person who played the game to its end met each other person who did, unless
    they played on one team; the winner of the two is noted (``Opponent``)."""
    people = [seat for seat in seats if not seat.user.is_bot and seat.stood_in_for_id is None]
    teammates = getattr(game.engine, "teammates", None)

    def partners(a, b) -> bool:
        return teammates is not None and b.number in teammates(game.players, a.number)

    pairs = [(a, b) for a in people for b in people if a.pk != b.pk and not partners(a, b)]
    if not pairs:
        return
    Opponent.objects.bulk_create(
        [Opponent(user_id=a.user_id, kind=game.kind, opponent_id=b.user_id) for a, b in pairs],
        ignore_conflicts=True,
    )
    met = Q()
    for a, b in pairs:
        met |= Q(user_id=a.user_id, opponent_id=b.user_id)
    rows = Opponent.objects.filter(met, kind=game.kind)
    rows.update(games=F("games") + 1)
    won = [seat.user_id for seat in people if seat.number in winners]
    if won:
        rows.filter(user_id__in=won).update(won=F("won") + 1)


def record_departure(game: Game, number: int, user, joined_at) -> None:
    """A late player left the seat for a substitute: for them the game is lost on time."""
    times = move_seconds(game, [number], timezone.now())
    seconds = _seconds_since(times.get(number, []), joined_at)
    SeatRecord.objects.bulk_create(
        [_record(game, user.pk, number, True, False, True, seconds)], ignore_conflicts=True
    )
    stats = _locked_stats([user.pk], game.kind)
    _refresh_record(stats[user.pk], user.pk, game.kind)


def _record(
    game: Game,
    user_id: int,
    number: int,
    counted: bool,
    won: bool,
    timed_out: bool,
    seconds,
    points: int | None = None,
) -> SeatRecord:
    return SeatRecord(
        game=game,
        user_id=user_id,
        kind=game.kind,
        seat=number,
        counted=counted,
        won=won,
        timed_out=timed_out,
        move_seconds=seconds,
        points=points,
    )


def _locked_stats(user_ids: list[int], kind: str) -> dict[int, PlayerStats]:
    """The players' rows for ``kind``, created if new, locked in id order (no deadlocks)."""
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=uid, kind=kind) for uid in user_ids], ignore_conflicts=True
    )
    rows = PlayerStats.objects.select_for_update().filter(user_id__in=user_ids, kind=kind)
    return {row.user_id: row for row in rows.order_by("user_id")}


def _rate(game: Game, seats, result: dict, stats: dict[int, PlayerStats]) -> None:
    by_number = {seat.number: seat for seat in seats}
    teammates = getattr(game.engine, "teammates", None)
    teams, ranks = ratings.teams_and_ranks(
        list(by_number),
        result,
        (lambda seat: teammates(game.players, seat)) if teammates else (lambda seat: [seat]),
    )
    if len(teams) < 2:
        return
    before = [[stats[by_number[n].user_id] for n in team] for team in teams]
    after = ratings.rate([[(row.mu, row.sigma) for row in team] for team in before], ranks)
    changes = []
    for team_rows, team_after in zip(before, after, strict=True):
        for row, (mu, sigma) in zip(team_rows, team_after, strict=True):
            old = row.rating
            row.mu, row.sigma = mu, sigma
            row.rating = ratings.shown_rating(mu, sigma)
            row.rated_games += 1
            row.save(update_fields=["mu", "sigma", "rating", "rated_games", "updated_at"])
            changes.append(
                RatingChange(
                    game=game, user_id=row.user_id, kind=game.kind, before=old, after=row.rating
                )
            )
    RatingChange.objects.bulk_create(changes)


def _refresh_record(row: PlayerStats, user_id: int, kind: str) -> None:
    """Recount the record from the player's seat records (the row is locked)."""
    records = SeatRecord.objects.filter(user_id=user_id, kind=kind)
    row.ended = records.count()
    row.played = records.filter(counted=True).count()
    row.won = records.filter(won=True).count()
    row.timeouts = records.filter(timed_out=True).count()
    recent = records.order_by("-created_at", "-pk").values_list("move_seconds", flat=True)
    seconds = [s for game_seconds in recent[:MEDIAN_GAMES] for s in game_seconds]
    row.median_move_seconds = round(statistics.median(seconds)) if seconds else None
    scored = records.aggregate(
        total=Sum("points"), games=Count("points", filter=Q(points__isnull=False))
    )
    row.points_total, row.points_games = scored["total"] or 0, scored["games"]
    row.save(
        update_fields=[
            "ended",
            "played",
            "won",
            "timeouts",
            "median_move_seconds",
            "points_total",
            "points_games",
            "updated_at",
        ]
    )


def move_seconds(game: Game, late: list[int], until) -> dict[int, list[tuple]]:
    """(time of the move, seconds it took) for each turn of each seat, from the move log.

    A turn's time runs from the previous move of another seat (or the start)
    to the seat's first action; further actions of the same turn add nothing.
    The ``late`` seats, still to move at ``until`` (they ran out of time), get
    the time they had been waiting, so running out the clock shows in the median.
    """
    out: dict[int, list[tuple]] = defaultdict(list)
    previous_seat, previous_at = None, game.started_at
    moves = game.moves.filter(undone=False).order_by("number").values_list("seat", "created_at")
    for seat, at in moves:
        if seat != previous_seat and previous_at is not None:
            out[seat].append((at, max(0, round((at - previous_at).total_seconds()))))
        previous_seat, previous_at = seat, at
    if until is not None and previous_at is not None:
        for seat in late:
            out[seat].append((until, max(0, round((until - previous_at).total_seconds()))))
    return dict(out)


def _seconds_since(turns: list[tuple], joined_at) -> list[int]:
    """A substitute's times start when they took the seat, not with the player before."""
    return [seconds for at, seconds in turns if joined_at is None or at >= joined_at]
