"""What players build up across games: ratings, records, rematches, cancellation votes."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

from .ratings import DEFAULT_MU, DEFAULT_SIGMA, shown_rating


class PlayerStats(models.Model):
    """One player's rating and record in one title, kept current when their games end.

    Everything a lobby line shows beside a name is in this one row, so a list
    of games costs one query for all its players.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    rating = models.IntegerField(default=shown_rating(DEFAULT_MU, DEFAULT_SIGMA))
    rated_games = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)  # ended with a result that counts
    won = models.PositiveIntegerField(default=0)
    ended = models.PositiveIntegerField(default=0)  # every started game that ended, aborts too
    timeouts = models.PositiveIntegerField(default=0)
    median_move_seconds = models.PositiveIntegerField(null=True, blank=True)
    # The title's own score (registry: GameKind.points) summed over the games that
    # have one, and how many those are: the profile's average.
    points_total = models.IntegerField(default=0)
    points_games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_stats_per_kind")]
        indexes = [models.Index(fields=["kind", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.kind}: {self.rating}"

    @property
    def average_points(self) -> float | None:
        if not self.points_games:
            return None
        return self.points_total / self.points_games

    @property
    def on_time_percent(self) -> int | None:
        """Share of ended games in which this player never ran out of time."""
        if not self.ended:
            return None
        return round(100 * (self.ended - self.timeouts) / self.ended)


class ScoredGame(models.Model):
    """The claim on an ended game: its row exists once, so it is scored once."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    rated = models.BooleanField()
    scored_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"scored {self.game_id}"


class SeatRecord(models.Model):
    """How one player's part in one game went; the records are sums over these."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    counted = models.BooleanField()  # the game ended with a result (not aborted)
    won = models.BooleanField()
    timed_out = models.BooleanField()
    # Seconds this seat took for each of its turns, for the median time to move.
    move_seconds = models.JSONField(default=list)
    # What the seat scored by the title's count (GameKind.points); None where the
    # game ended without that count, or the player did not play it to the end.
    points = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_record_per_player")
        ]
        indexes = [models.Index(fields=["user", "kind", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}"


class Opponent(models.Model):
    """How often ``user`` met ``opponent`` (another person) in ended games of ``kind``,
    and how often ``user`` won: kept up as games end, so that a profile reads a player's
    favourite opponents in rows per opponent, however many games they played."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    games = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "opponent"], name="one_opponent_row")
        ]
        # The profile: a player's most frequent opponents per title.
        indexes = [models.Index(fields=["user", "kind", "-games"], name="opponent_most_met")]

    def __str__(self) -> str:
        return f"{self.user_id} met {self.opponent_id} {self.games}x in {self.kind}"


class RatingChange(models.Model):
    """One step of a player's rating history (the profile's chart)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_game")
        ]
        indexes = [models.Index(fields=["user", "kind", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.before}->{self.after}"


class Rematch(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for answers")
        STARTED = "started", _("started")
        DECLINED = "declined", _("declined")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    new_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # "My games" lists the pending offers, newest first: it walks these and looks
        # each one's game up among the player's seats, instead of reading all their seats.
        indexes = [
            models.Index(
                fields=["created_at"],
                name="rematch_pending",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"rematch of {self.game_id}"


class RematchAnswer(models.Model):
    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField()
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="one_answer_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.accepted}"


class CancelVote(models.Model):
    """A player agrees to cancel a running game; withdrawn by deleting the row."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cancel_votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_cancel_vote_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} agrees to cancel {self.game_id}"
