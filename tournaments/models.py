"""Tournaments (their entrants, rounds and tables) and ladders (their players and games).

A tournament's games are ordinary games (``games.Game``), each linked to its table; a
table keeps its entrants in seat order and, once its game has ended, their points and
the title's own scores, so the standings read the tables only.
"""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game

from .pairing import standings


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin in groups")

    class Status(models.TextChoices):
        SIGNUP = "signup", _("open for entries")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    class Withdrawal(models.TextChoices):
        FORFEIT = "forfeit", _("their remaining games are forfeited")
        SUBSTITUTE = "substitute", _("a computer player plays their remaining games")

    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(_("players per table"))
    time_limit_days = models.PositiveSmallIntegerField(_("time per move (days)"), default=3)
    # A named pace of banks (games.clock.paces) instead of the time per move; "" for none.
    pace = models.CharField(_("pace"), max_length=12, blank=True, default="")
    timeout_policy = models.CharField(
        _("when time runs out"),
        max_length=10,
        choices=Game.TimeoutPolicy.choices,
        default=Game.TimeoutPolicy.LOSE,
    )
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    # Swiss: the number of rounds.
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=0)
    # Round robin: the size the groups are made near to; each table played in every seating.
    group_size = models.PositiveSmallIntegerField(_("group size"), default=0)
    every_seating = models.BooleanField(_("every table in every seating"), default=True)
    # Knockout finals for this many of the best (0: none).
    finals = models.PositiveSmallIntegerField(_("knockout finals"), default=0)
    withdrawal = models.CharField(
        _("when an entrant withdraws"),
        max_length=10,
        choices=Withdrawal.choices,
        default=Withdrawal.FORFEIT,
    )
    min_entrants = models.PositiveSmallIntegerField(_("minimum entrants"))
    max_entrants = models.PositiveSmallIntegerField(_("maximum entrants"))
    signup_closes = models.DateTimeField(_("sign-up closes"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SIGNUP)
    # Counts the steps taken (start, each round, the end): a step is claimed by moving
    # it on with a conditional UPDATE, so two workers never take the same one.
    step = models.PositiveIntegerField(default=0)
    # The round robin's rounds, planned at the start: [[[entrant id, ...], ...], ...].
    plan = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The final table, kept as it stood at the end (the archive).
    final_table = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "signup_closes"], name="tournament_due")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        if self.format == self.Format.SWISS:
            return (standings.BUCHHOLZ, standings.SONNEBORN_BERGER)
        return (standings.SONNEBORN_BERGER,)

    @property
    def bye_points(self) -> Fraction:
        return Fraction(1)


class Entrant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        WITHDRAWN = "withdrawn", _("withdrew")
        REMOVED = "removed", _("removed by a moderator")
        # More entered than a round robin's groups could seat: they wait out this one.
        LEFT_OUT = "left_out", _("not seated (the groups were full)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Rating when the tournament started, and the place it gave (1 = the highest).
    rating = models.IntegerField(null=True, blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    # The round in which they withdrew or were removed.
    left_in_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")
        ]
        ordering = ["seed", "joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def playing(self) -> bool:
        return self.status == self.Status.ACTIVE


class Round(models.Model):
    class Stage(models.TextChoices):
        MAIN = "main", _("main")
        FINALS = "finals", _("finals")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=6, choices=Stage.choices, default=Stage.MAIN)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Table(models.Model):
    class Kind(models.TextChoices):
        GAME = "game", _("game")
        BYE = "bye", _("bye")
        # Not played: an entrant had withdrawn (policy "forfeit").
        FORFEIT = "forfeit", _("forfeited")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.GAME)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_table"
    )
    # Entrant ids in seat order (a bye: the one entrant).
    seating = models.JSONField()
    # Once decided: each seat's points ("1/2") and the title's own score.
    points = models.JSONField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    done = models.BooleanField(default=False)

    class Meta:
        ordering = ["round__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    def point_values(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(p) for p in self.points or ())


class Ladder(models.Model):
    """The always-on competition of one title: players who joined get games against
    others near their rating whenever they have fewer running than they asked for."""

    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=2)
    time_limit_days = models.PositiveSmallIntegerField(_("time per move (days)"), default=3)
    # A named pace of banks (games.clock.paces) instead of the time per move; "" for none.
    pace = models.CharField(_("pace"), max_length=12, blank=True, default="")
    timeout_policy = models.CharField(
        max_length=10, choices=Game.TimeoutPolicy.choices, default=Game.TimeoutPolicy.LOSE
    )
    active = models.BooleanField(default=True)
    # Counts pairing runs; a run is claimed by moving it on (conditional UPDATE).
    step = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ladder", args=[self.pk])

    @property
    def display_name(self) -> str:
        """The name in the reader's language (a default ladder is named after its title)."""
        return gettext(self.name)


class LadderPlayer(models.Model):
    MOST_GAMES = 5

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # K: how many ladder games the player wants running at once.
    games_at_once = models.PositiveSmallIntegerField(_("games at once"), default=1)
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "user"], name="one_ladder_entry")]

    def __str__(self) -> str:
        return f"{self.user} on {self.ladder}"


class LadderGame(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="ladder_game")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.ladder}: {self.game_id}"
