"""What happens to a tournament: it is created, entered and left during its sign-up;
then, step by step, it starts, each round starts when the one before has ended, the
finals follow, and it ends with its final table kept.

Each step is claimed exactly once: ``advance`` decides what is due, then moves the
tournament's ``step`` on with a conditional UPDATE and does the step in the same
transaction. Two workers that find the same step due both try; the second UPDATE
waits for the first transaction and then matches no row, so it does nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clock, extend, play, registry
from games.models import Game

from . import queue, results
from .models import Entrant, Round, Table, Tournament
from .pairing import knockout, roundrobin, standings, swiss

logger = logging.getLogger(__name__)


class TournamentError(play.PlayError):
    pass


def is_moderator(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.has_perm("moderation.moderate"))


def may_create(user) -> bool:
    """Moderators, and players whose e-mail address is verified, under the limit of
    tournaments of their own not yet over (``TOURNAMENTS_PER_PLAYER``)."""
    if not user.is_authenticated or not user.is_active or user.is_bot:
        return False
    if is_moderator(user):
        return True
    if not EmailAddress.objects.filter(user=user, verified=True).exists():
        return False
    return creations_left(user) > 0


def creations_left(user) -> int:
    running = Tournament.objects.filter(
        created_by=user, status__in=[Tournament.Status.SIGNUP, Tournament.Status.RUNNING]
    ).count()
    return max(settings.TOURNAMENTS_PER_PLAYER - running, 0)


def create(user, **fields) -> Tournament:
    """A new tournament open for entries until ``signup_closes`` (the form checked the
    fields; this checks who may)."""
    if not may_create(user):
        raise TournamentError(
            _(
                "Only moderators and players with a verified e-mail address can create "
                "tournaments, %(n)d at a time."
            )
            % {"n": settings.TOURNAMENTS_PER_PLAYER},
            403,
        )
    return Tournament.objects.create(created_by=user, **fields)


def _locked(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentError(_("There is no such tournament."), 404)
    return found


def enter(tournament_id: int, user) -> Entrant:
    play.refuse_blocked(user)
    if user.is_bot:
        raise TournamentError(_("Computer players do not enter tournaments."), 403)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.SIGNUP or timezone.now() >= (
            tournament.signup_closes
        ):
            raise TournamentError(_("This tournament is not open for entries any more."), 409)
        if tournament.entrants.filter(user=user).exists():
            raise TournamentError(_("You have entered this tournament already."), 409)
        if tournament.entrants.count() >= tournament.max_entrants:
            raise TournamentError(_("This tournament is full."), 409)
        return Entrant.objects.create(tournament=tournament, user=user)


def withdraw(tournament_id: int, user) -> str:
    """``user`` leaves: before the start they are simply no entrant; later they withdraw
    and their remaining games go as the tournament says (``_leave``)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entrant = tournament.entrants.filter(user=user).first()
        if entrant is None:
            raise TournamentError(_("You have not entered this tournament."), 409)
        if tournament.status == Tournament.Status.SIGNUP:
            entrant.delete()
            return "left"
        if tournament.status != Tournament.Status.RUNNING or not entrant.playing:
            raise TournamentError(_("You are not playing in this tournament any more."), 409)
        _leave(tournament, entrant, Entrant.Status.WITHDRAWN)
        return "withdrawn"


def remove(tournament_id: int, entrant_id: int, moderator, reason: str) -> Entrant:
    """A moderator takes an entrant out, for a reason kept in the audit trail."""
    reason = (reason or "").strip()
    if not is_moderator(moderator):
        raise TournamentError(_("Only moderators can remove an entrant."), 403)
    if not reason:
        raise TournamentError(_("A reason is required."))
    trail = extend.audit_trail()
    if trail is None:
        raise TournamentError(_("There is no audit trail to record this in."), 503)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entrant = tournament.entrants.select_related("user").filter(pk=entrant_id).first()
        if entrant is None:
            raise TournamentError(_("There is no such entrant."), 404)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This tournament is over."), 409)
        if entrant.status not in (Entrant.Status.ACTIVE, Entrant.Status.LEFT_OUT):
            raise TournamentError(_("This entrant is not playing any more."), 409)
        trail(
            moderator,
            "remove_entrant",
            reason,
            user=entrant.user,
            target=f"{entrant.user} in {tournament.name} (#{tournament.pk})",
        )
        if tournament.status == Tournament.Status.SIGNUP:
            entrant.delete()
        else:
            _leave(tournament, entrant, Entrant.Status.REMOVED)
    return entrant


def _leave(tournament: Tournament, entrant: Entrant, status: str) -> None:
    """The entrant is out from now on; each of their running games is forfeited (they
    resign it) or handed to a computer player, as the tournament says. Their tables of
    later rounds are decided when those rounds start (``_open_table``)."""
    current = tournament.round_set.order_by("-number").first()
    entrant.status = status
    entrant.left_in_round = current.number if current else None
    entrant.save(update_fields=["status", "left_in_round"])
    running = Table.objects.filter(
        tournament=tournament, done=False, kind=Table.Kind.GAME, game__status=Game.Status.ACTIVE
    )
    for table in running:
        if entrant.pk not in table.seating:
            continue
        if tournament.withdrawal == Tournament.Withdrawal.SUBSTITUTE and play.hand_to_computer(
            table.game_id, entrant.user
        ):
            continue
        try:
            play.resign(table.game_id, entrant.user)
        except play.PlayError:
            # Not their seat any more (a computer stands in after a timeout): the
            # standings count it lost for them anyway.
            logger.info("entrant %s had no seat to resign in game %s", entrant.pk, table.game_id)


def close_signup(tournament_id: int, user) -> Tournament:
    """The creator (or a moderator) starts the tournament before its sign-up ends."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.created_by_id != user.pk and not is_moderator(user):
            raise TournamentError(_("Only the creator can start the tournament early."), 403)
        if tournament.status != Tournament.Status.SIGNUP:
            raise TournamentError(_("This tournament has started already."), 409)
        if tournament.entrants.count() < max(tournament.min_entrants, tournament.table_size):
            raise TournamentError(
                _("The tournament needs at least %(n)d entrants to start.")
                % {"n": max(tournament.min_entrants, tournament.table_size)},
                409,
            )
        tournament.signup_closes = timezone.now()
        tournament.save(update_fields=["signup_closes"])
        queue.after_commit(queue.ADVANCE, tournament.pk)
    return tournament


# -- the steps ---------------------------------------------------------------------


def due_ids(now: datetime | None = None) -> list[int]:
    """Tournaments that may have a step due: sign-up over, or running."""
    now = now or timezone.now()
    signup = Tournament.objects.filter(status=Tournament.Status.SIGNUP, signup_closes__lte=now)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    return sorted(
        set(signup.values_list("pk", flat=True)) | set(running.values_list("pk", flat=True))
    )


def advance(tournament_id: int) -> str | None:
    """Take the tournament's next step if one is due; returns what was done ("start",
    "cancelled", "round", "finals", "finished") or None (nothing due, or another worker
    took the step)."""
    with transaction.atomic():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        due = _due(tournament)
        if due is None:
            return None
        claimed = Tournament.objects.filter(pk=tournament.pk, step=tournament.step).update(
            step=tournament.step + 1
        )
        if claimed != 1:
            return None
        tournament.refresh_from_db()
        return due(tournament)


def _due(tournament: Tournament):
    """The step due now, as the function that takes it, or None."""
    if tournament.status == Tournament.Status.SIGNUP:
        return _start if timezone.now() >= tournament.signup_closes else None
    if tournament.status != Tournament.Status.RUNNING:
        return None
    current = tournament.round_set.order_by("-number").first()
    if current is None:
        return _next_round
    if Table.objects.filter(round=current, done=False).exists():
        return None
    return _next_round


def _start(tournament: Tournament) -> str:
    entrants = list(tournament.entrants.select_related("user").order_by("joined_at", "pk"))
    entrants = [e for e in entrants if e.user.is_active]
    now = timezone.now()
    if len(entrants) < max(tournament.min_entrants, tournament.table_size):
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        return "cancelled"
    rating = extend.ratings(tournament.kind, [e.user_id for e in entrants])
    # The seeding: rating, then who entered first.
    entrants.sort(key=lambda e: (-rating[e.user_id], e.joined_at, e.pk))
    for seed, entrant in enumerate(entrants, start=1):
        entrant.rating, entrant.seed = rating[entrant.user_id], seed
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        playable = roundrobin.largest_playable(len(entrants), tournament.table_size)
        seated, out = entrants[:playable], entrants[playable:]
        # The groups take the best seeds; whoever entered last of the rest waits out.
        out.sort(key=lambda e: (e.joined_at, e.pk))
        for entrant in out:
            entrant.status = Entrant.Status.LEFT_OUT
        sizes = roundrobin.group_sizes(
            len(seated), tournament.table_size, tournament.group_size or len(seated)
        )
        groups = roundrobin.deal([e.pk for e in seated], sizes)
        where = {pk: number for number, members in enumerate(groups, start=1) for pk in members}
        for entrant in seated:
            entrant.group = where[entrant.pk]
        tournament.plan = [
            [list(block) for block in tables]
            for tables in roundrobin.schedule(
                groups, tournament.table_size, tournament.every_seating
            )
        ]
    Entrant.objects.bulk_update(entrants, ["rating", "seed", "status", "group"])
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at", "plan"])
    _next_round(tournament)
    return "start"


def _next_round(tournament: Tournament) -> str:
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.ended_at is None:
        last.ended_at = timezone.now()
        last.save(update_fields=["ended_at"])
    number = (last.number if last else 0) + 1
    entrants = list(tournament.entrants.select_related("user"))
    if last is None or last.stage == Round.Stage.MAIN:
        main_rounds = (
            len(tournament.plan)
            if tournament.format == Tournament.Format.ROUND_ROBIN
            else tournament.rounds
        )
        playing = [e for e in entrants if e.playing]
        if number <= main_rounds and len(playing) >= tournament.table_size:
            _main_round(tournament, number, entrants)
            return "round"
        qualifiers = _qualifiers(tournament, entrants)
        if qualifiers:
            tables = knockout.first_round(qualifiers, tournament.table_size)
            _open_round(tournament, number, Round.Stage.FINALS, tables, [])
            return "finals"
        return _finish(tournament, entrants)
    finished = list(last.tables.order_by("number"))
    if len(finished) <= 1:
        return _finish(tournament, entrants)
    seed = results.seeds(entrants)
    winners = [
        knockout.winner(t.seating, t.point_values(), [float(s) for s in t.scores or ()], seed)
        for t in finished
    ]
    tables = knockout.next_round(winners, tournament.table_size)
    _open_round(tournament, number, Round.Stage.FINALS, tables, [])
    return "finals"


def _main_round(tournament: Tournament, number: int, entrants: list[Entrant]) -> None:
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        by_pk = {e.pk: e for e in entrants}
        tables = [tuple(block) for block in tournament.plan[number - 1]]
        # (An entrant whose account was deleted since has no row: their seat is "gone".)
        groups = [next((by_pk[p].group for p in block if p in by_pk), None) for block in tables]
        _open_round(tournament, number, Round.Stage.MAIN, tables, [], groups)
        return
    players = results.swiss_players(tournament, entrants)
    if tournament.table_size == 2:
        pairing = swiss.pair_round(players)
    else:
        pairing = swiss.group_round(players, tournament.table_size)
    _open_round(tournament, number, Round.Stage.MAIN, pairing.tables, pairing.byes)


def _qualifiers(tournament: Tournament, entrants: list[Entrant]) -> list[int]:
    """The finalists in seed order: the groups' winners first, then their runners-up, ...;
    as many as the largest bracket the players still in allow (none without finals)."""
    if not tournament.finals:
        return []
    groups = results.group_standings(tournament, entrants, results.main_tables(tournament))
    playing = {e.pk for e in entrants if e.playing}
    ranked = [[row for row in rows if row.entrant in playing] for rows in groups.values()]
    sizes = [
        s for s in knockout.sizes(tournament.table_size, len(playing)) if s <= tournament.finals
    ]
    if not sizes:
        return []
    by_place = []
    for place in range(max((len(rows) for rows in ranked), default=0)):
        level = [rows[place] for rows in ranked if place < len(rows)]
        level.sort(key=lambda row: (-row.points, row.seed))
        by_place.extend(level)
    return [row.entrant for row in by_place[: sizes[-1]]]


def _open_round(
    tournament: Tournament,
    number: int,
    stage: str,
    tables: list[tuple[int, ...]],
    byes: list[int],
    groups: list[int | None] | None = None,
) -> Round:
    round_ = Round.objects.create(tournament=tournament, number=number, stage=stage)
    by_pk = {e.pk: e for e in tournament.entrants.select_related("user")}
    for index, seating in enumerate(tables):
        group = groups[index] if groups else None
        _open_table(tournament, round_, index + 1, list(seating), by_pk, group)
    for index, entrant in enumerate(byes, start=len(tables) + 1):
        Table.objects.create(
            round=round_,
            tournament=tournament,
            number=index,
            group=by_pk[entrant].group,
            kind=Table.Kind.BYE,
            seating=[entrant],
            points=[str(tournament.bye_points)],
            scores=[0],
            done=True,
        )
    return round_


def _open_table(
    tournament: Tournament,
    round_: Round,
    number: int,
    seating: list[int],
    by_pk: dict[int, Entrant],
    group: int | None,
) -> Table:
    """A table of the round: its game starts at once with the seats as planned. An
    entrant who left (or whose account is gone: None) is replaced by a computer player
    (policy "substitute") or the table is not played and the others share its point
    (policy "forfeit")."""
    table = Table(
        round=round_,
        tournament=tournament,
        number=number,
        group=group,
        seating=seating,
    )
    entrants = [by_pk.get(pk) for pk in seating]
    gone = [
        seat for seat, e in enumerate(entrants) if e is None or not (e.playing and e.user.is_active)
    ]
    users = [e.user if e is not None else None for e in entrants]
    computers = extend.computer_players()
    substitute = (
        tournament.withdrawal == Tournament.Withdrawal.SUBSTITUTE
        and computers is not None
        and len(gone) < len(entrants)
    )
    if gone and substitute:
        taken = [u.pk for u in users if u is not None]
        for seat in gone:
            users[seat] = computers.account(computers.stand_in_strength, taken)
            taken.append(users[seat].pk)
    if gone and not substitute:
        table.kind = Table.Kind.FORFEIT
        size = len(entrants)
        table.points = [str(p) for p in standings.game_points(size, [], gone)]
        table.scores = [0] * size
        table.done = True
        table.save()
        return table
    kind = registry.get(tournament.kind)
    table.game = play.create_seated_game(
        kind,
        users,
        title=f"{tournament.name} · {round_.number}.{number}",
        options=tournament.options,
        time_limit_days=tournament.time_limit_days,
        timeout_policy=tournament.timeout_policy,
        pace=clock.pace_for(tournament.pace),
        created_by=tournament.created_by,
    )
    table.save()
    return table


def _finish(tournament: Tournament, entrants: list[Entrant]) -> str:
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.ended_at is None:
        last.ended_at = timezone.now()
        last.save(update_fields=["ended_at"])
    tournament.final_table = final_table(tournament, entrants)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["final_table", "status", "finished_at"])
    return "finished"


def final_table(tournament: Tournament, entrants: list[Entrant]) -> list[dict]:
    """Everyone's final place: the finalists by how far they came (the last table's
    winner first), then the others by their places in the groups, then by points."""
    by_pk = {e.pk: e for e in entrants}
    groups = results.group_standings(tournament, entrants, results.main_tables(tournament))
    main = {row.entrant: row for rows in groups.values() for row in rows}
    seed = results.seeds(entrants)
    finals = list(
        Table.objects.filter(tournament=tournament, round__stage=Round.Stage.FINALS)
        .select_related("round")
        .order_by("-round__number", "number")
    )
    order: list[int] = []
    if finals:
        last = finals[0]
        champion = knockout.winner(
            last.seating, last.point_values(), [float(s) for s in last.scores or ()], seed
        )
        order.append(champion)
        for table in finals:
            points = dict(zip(table.seating, table.point_values(), strict=True))
            rest = [e for e in table.seating if e not in order and e in seed]
            rest.sort(key=lambda e: (-points[e], seed[e]))
            order.extend(rest)
    others = [row for row in main.values() if row.entrant not in order]
    others.sort(key=lambda row: (row.place, -row.points, row.seed))
    order.extend(row.entrant for row in others)
    table = []
    order = [pk for pk in order if pk in by_pk]  # not an account deleted since
    for place, pk in enumerate(order, start=1):
        row, entrant = main.get(pk), by_pk[pk]
        table.append(
            {
                "place": place,
                "entrant": pk,
                "user": entrant.user_id,
                "name": entrant.user.name,
                "group": entrant.group,
                "status": entrant.status,
                "points": str(row.points) if row else "0",
                "games": row.games if row else 0,
            }
        )
    return table


# -- results of games --------------------------------------------------------------


def record_game(game: Game) -> Table | None:
    """A tournament game has ended: its table's points and scores (inside the game's
    transaction, from ``game_finished``). Running out of time, being removed or having
    left the tournament counts as a loss (``standings.game_points``)."""
    table = Table.objects.select_related("tournament").filter(game=game, done=False).first()
    if table is None:
        return None
    result = game.result or {}
    details = result.get("details") or {}
    entrants = {e.pk: e for e in Entrant.objects.filter(pk__in=table.seating)}
    holders = {s.number: s.user_id for s in game.seats.all()}
    late = set(details.get("timed_out") or []) | set(details.get("removed") or [])
    for seat, pk in enumerate(table.seating):
        entrant = entrants.get(pk)
        if entrant is None or not entrant.playing or holders.get(seat) != entrant.user_id:
            late.add(seat)
    winners = (result.get("winners") or []) if game.status == Game.Status.FINISHED else []
    size = len(table.seating)
    points = standings.game_points(size, winners, late)
    scores = standings.title_scores(size, result if game.status == Game.Status.FINISHED else None)
    table.points = [str(p) for p in points]
    table.scores = [0 if seat in late else s for seat, s in enumerate(scores)]
    table.done = True
    table.save(update_fields=["points", "scores", "done"])
    return table
