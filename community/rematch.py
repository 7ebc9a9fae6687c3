"""A rematch of a finished game: the same players, seats drawn anew, everyone must accept."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import clock, play, registry, signals
from games.models import Game, Seat

from .models import Rematch, RematchAnswer


def answer(game_id: int, user, accept: bool) -> Rematch:
    """``user`` proposes or accepts (``accept``) or refuses a rematch of a finished game.

    The first acceptance proposes it. One refusal ends the proposal. When the
    last player accepts, the new game is created and started in the same
    transaction: the players are seated by the new game's seed, like any game.
    Answering the same way twice changes nothing. The players are the seats'
    people (``people``): one a computer stood in for at the end is asked too.
    A rematch is arranged within ``REMATCH_DAYS`` of the game's end (``is_open``):
    after that an offer nobody has decided has lapsed, and no answer counts.
    """
    with transaction.atomic():
        game = play.locked(game_id)  # one answer at a time, so the last one starts it once
        players = people(game)  # read once: the seats do not change under the lock
        if all(person.pk != user.pk for person in players):
            raise play.NotAPlayer()
        if game.status != Game.Status.FINISHED:
            raise play.PlayError(_("A rematch can only follow a finished game."), 409)
        rematch = Rematch.objects.filter(game=game).first()
        if rematch is not None and rematch.status != Rematch.Status.PENDING:
            previous = RematchAnswer.objects.filter(rematch=rematch, user=user).first()
            if previous is not None and previous.accepted == accept:
                return rematch  # a repeated click on what already happened, however late
            raise play.PlayError(_("This rematch has already been decided."), 409)
        if rematch is None and not accept:
            raise play.PlayError(_("Nobody has proposed a rematch."), 409)
        if not is_open(game):
            raise Lapsed()
        if rematch is None:
            _check_players(game, players)
            rematch = Rematch.objects.create(game=game, proposed_by=user)
            signals.rematch_offered.send(Rematch, game=game, user=user, rematch=rematch.pk)
        RematchAnswer.objects.update_or_create(
            rematch=rematch, user=user, defaults={"accepted": accept}
        )
        if not accept:
            rematch.status = Rematch.Status.DECLINED
            rematch.save(update_fields=["status"])
        elif _everyone_accepted(players, rematch):
            _start(game, rematch, players)
        game.version += 1  # the pages of the finished game show the new answers
        game.save(update_fields=["version"])
    return rematch


class Lapsed(play.PlayError):
    def __init__(self) -> None:
        days = settings.REMATCH_DAYS
        super().__init__(
            ngettext(
                "The time for a rematch is over: one can be arranged within %(days)d day "
                "of the game's end.",
                "The time for a rematch is over: one can be arranged within %(days)d days "
                "of the game's end.",
                days,
            )
            % {"days": days},
            409,
        )


def open_until(game: Game) -> datetime.datetime:
    """Until when a rematch of the finished ``game`` can be proposed and accepted."""
    return game.finished_at + datetime.timedelta(days=settings.REMATCH_DAYS)


def is_open(game: Game) -> bool:
    return game.finished_at is not None and timezone.now() < open_until(game)


def people(game: Game) -> list:
    """Who played each seat, in seat order: the player a computer stood in for at
    the end (they ran out of time) rather than the computer."""
    seats = game.seats.select_related("user", "stood_in_for").order_by("number")
    return [seat.stood_in_for or seat.user for seat in seats]


def _check_players(game: Game, players: list) -> None:
    if len(players) < game.players:
        raise play.PlayError(_("A player's seat is empty, so there can be no rematch."), 409)
    gone = [person.name for person in players if not person.is_active]
    if gone:
        raise play.PlayError(
            _("%(names)s can no longer play here.") % {"names": ", ".join(gone)}, 409
        )


def _everyone_accepted(players: list, rematch: Rematch) -> bool:
    # Computer players never answer: they play again whenever the people do.
    people_ids = {person.pk for person in players if not person.is_bot}
    accepted = set(rematch.answers.filter(accepted=True).values_list("user_id", flat=True))
    return people_ids <= accepted


def _start(game: Game, rematch: Rematch, players: list) -> None:
    _check_players(game, players)
    proposer = rematch.proposed_by
    new = play.create_game(
        proposer,
        registry.get(game.kind),
        title=game.title,
        players=game.players,
        options=game.options,
        time_limit_days=game.time_limit_days,
        private=game.private,
        timeout_policy=game.timeout_policy,
        vacation_allowed=game.vacation_allowed,
        pace=clock.pace_of(game),  # the same clock: a bank's pace and weekends off too
        weekends_off=game.weekends_off,
    )
    for person in players:
        if person.pk != proposer.pk:
            play.join(new.pk, person)
    rematch.status = Rematch.Status.STARTED
    rematch.new_game = new
    rematch.save(update_fields=["status", "new_game"])


def pending_for(user) -> list[Rematch]:
    """Rematches waiting for ``user``'s answer (for "My games"): the offers of their
    games that ended in the last REMATCH_DAYS, each of which can still be accepted."""
    return list(offers_for(user).select_related("game", "proposed_by").order_by("-created_at"))


def offers_for(user):
    """``pending_for`` as a query (``games.lists.badge_counts`` counts the same in SQL)."""
    answered = RematchAnswer.objects.filter(user=user).values("rematch_id")
    # From the player's recently ended seats (seat_person_ended) to each game's offer:
    # neither the player's older games nor the offers of the whole site are read.
    # A seat's ended_at is its game's finished_at: these are exactly the games whose
    # rematch window (is_open) has not closed.
    since = timezone.now() - datetime.timedelta(days=settings.REMATCH_DAYS)
    recent = Seat.objects.filter(person=user, ended_at__gt=since).values("game_id")
    return Rematch.objects.filter(game_id__in=recent, status=Rematch.Status.PENDING).exclude(
        pk__in=answered
    )
