import functools
import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import models
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import registry

INVITE_SALT = "games.invite"

# For a filter on a boolean column that an index is to serve (``private=FALSE``): Django
# writes ``private=False`` as ``NOT private``, which SQLite cannot look up in an index
# (only "column = value"; PostgreSQL can), and ``private=FALSE`` as ``private = false``.
TRUE, FALSE = models.Value(True), models.Value(False)


def new_seed() -> int:
    return secrets.randbits(62)


def new_salt() -> str:
    return secrets.token_hex(16)


@functools.cache
def _names_in_every_language(msgid: str) -> frozenset[str]:
    names = {msgid}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names.add(gettext(msgid))
    return frozenset(names)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        ACTIVE = "active", _("running")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class TimeoutPolicy(models.TextChoices):
        LOSE = "lose", _("the late player loses")
        ABORT = "abort", _("the game is aborted")
        # The late seats are emptied and wait, clock stopped, for another player.
        SUBSTITUTE = "substitute", _("the seat opens to a substitute")
        # A computer player takes the late seats and plays on; the player can reclaim theirs.
        STAND_IN = "stand_in", _("a computer player takes over (the player can reclaim the seat)")

    kind = models.CharField(max_length=20)
    title = models.CharField(_("title"), max_length=80)
    options = models.JSONField(default=dict, blank=True)
    players = models.PositiveSmallIntegerField(_("players"))
    rules_version = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=new_seed, editable=False)
    # Published with the seed at the end; without it a 62-bit seed could be
    # guessed from its hash while the game runs.
    seed_salt = models.CharField(max_length=32, default=new_salt, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    private = models.BooleanField(_("private"), default=False)
    time_limit_days = models.PositiveSmallIntegerField(_("time per move (days)"), default=3)
    deadline = models.DateTimeField(null=True, blank=True)
    timeout_policy = models.CharField(
        _("when time runs out"),
        max_length=10,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.LOSE,
    )
    vacation_allowed = models.BooleanField(_("vacation stops the clock"), default=True)
    # A bank per seat (games.clock): the time each seat starts with, what each of its
    # turns adds, and the most it may hold. None: the fixed time per move above (every
    # game created before banks existed keeps that clock).
    bank_start = models.DurationField(null=True, blank=True)
    bank_increment = models.DurationField(null=True, blank=True)
    bank_cap = models.DurationField(null=True, blank=True)
    # The clock does not run on Saturday and Sunday in each player's own time zone.
    weekends_off = models.BooleanField(_("weekends off"), default=False)
    # While everyone who must move is on vacation the clock stands still:
    # deadline is None and this holds the time that was left.
    paused_remaining = models.DurationField(null=True, blank=True)
    # Agreed pauses (games.pause): the days of them the game allows in all, chosen at
    # creation (0: none), and the end of the one in force, if any. While it is set the
    # clock stands still as for a vacation; the deadline sweep restarts it then.
    pause_days = models.PositiveSmallIntegerField(_("days of agreed pauses"), default=14)
    paused_until = models.DateTimeField(null=True, blank=True)
    # The days of them used so far (each pause as long as it lasted; the one in force as
    # agreed), kept here so that no page has to add up the ``Pause`` rows.
    pause_days_used = models.PositiveSmallIntegerField(default=0)
    # move_count counts the moves in force (undone ones excluded); version changes
    # on every change to the game's position, so a poll compares one integer.
    move_count = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    # Secret steps (``engine.secret``: a plan click only its player sees) leave
    # ``version``, which every viewer reads (polls, live events, the API), where it
    # was and count here instead; the site's own caches name a position by both.
    secret_steps = models.PositiveIntegerField(default=0)
    undo_count = models.PositiveIntegerField(default=0)
    chat_count = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    # A computer player held a seat at some time (practice, or standing in for
    # a late player): the game is rated for nobody, even once people hold every seat.
    computer_played = models.BooleanField(default=False)
    # False: the players asked for a game that counts for nobody's rating (an unrated
    # automatch table); a game with computer players is unrated whatever this says.
    rated = models.BooleanField(_("rated"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the latest move was made (the start, before the first): the lobby
    # lists running games by it without reading their moves.
    last_move_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # One per list, for its filter and its order (see the EXPLAIN notes in
        # docs/performance.md): the lobby's open and substitute games, the
        # games to watch, the archive.
        indexes = [
            models.Index(fields=["status", "private", "created_at"], name="game_lobby"),
            models.Index(fields=["status", "private", "last_move_at", "id"], name="game_watch"),
            models.Index(
                fields=["private", "finished_at", "id"],
                name="game_archive",
                condition=models.Q(finished_at__isnull=False),
            ),
            # The archive's search (games.archive_search): longest or shortest first,
            # and one title newest first (a rare title is not found by walking them all).
            models.Index(
                fields=["private", "move_count", "id"],
                name="game_archive_length",
                condition=models.Q(finished_at__isnull=False),
            ),
            models.Index(
                fields=["kind", "private", "finished_at", "id"],
                name="game_archive_kind",
                condition=models.Q(finished_at__isnull=False),
            ),
            models.Index(
                fields=["private", "created_at"],
                name="game_substitute",
                condition=models.Q(status="active", timeout_policy="substitute"),
            ),
            # The deadline sweep: overdue running games, and stopped clocks (deadline NULL),
            # without reading every running game (bench/sweep_deadlines.py).
            models.Index(
                fields=["deadline"],
                name="game_running_deadline",
                condition=models.Q(status="active"),
            ),
            # ... and agreed pauses that have come to their end.
            models.Index(
                fields=["paused_until"],
                name="game_pause_end",
                condition=models.Q(status="active", paused_until__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    @property
    def kind_info(self) -> registry.GameKind:
        return registry.get(self.kind, self.rules_version)

    @property
    def engine(self):
        return self.kind_info.engine

    @property
    def kind_name(self) -> str:
        """The game's name as players know it (King of Saba is King of Siam's other map)."""
        return gettext(self._kind_msgid)

    @property
    def _kind_msgid(self) -> str:
        variant_name = getattr(self.engine, "variant_name", None)
        return variant_name(self.options) if variant_name else self.engine.name

    @property
    def title_is_kind(self) -> bool:
        """The title only names the kind (the form's default), in any of the site's languages."""
        return self.title in _names_in_every_language(self._kind_msgid)

    @property
    def named(self) -> str:
        """The game as text names it: “Title” (Kind), or only “Title” when that is the kind."""
        if self.title_is_kind:
            return gettext("“%(title)s”") % {"title": self.title}
        return gettext("“%(title)s” (%(kind)s)") % {"title": self.title, "kind": self.kind_name}

    @property
    def seed_reveal(self) -> str:
        """What the commitment hashes: checkable by anyone once it is revealed."""
        return f"{self.seed_salt}:{self.seed}"

    @property
    def seed_commitment(self) -> str:
        return hashlib.sha256(self.seed_reveal.encode()).hexdigest()

    def invite_token(self) -> str:
        # No timestamp: the link a creator copies must stay the same on every visit.
        return signing.Signer(salt=INVITE_SALT).sign_object(self.pk)

    @classmethod
    def from_invite_token(cls, token) -> "Game | None":
        if not isinstance(token, str):
            return None
        try:
            pk = signing.Signer(salt=INVITE_SALT).unsign_object(token)
        except (signing.BadSignature, ValueError):
            try:  # links handed out before tokens lost their timestamp
                pk = signing.loads(token, salt=INVITE_SALT)
            except (signing.BadSignature, ValueError):
                return None
        if not isinstance(pk, int):
            return None
        return cls.objects.filter(pk=pk).first()

    def visible_to(self, user) -> bool:
        """Private games are for their players (and moderators) only."""
        if not self.private or user.is_staff:
            return True
        if not user.is_authenticated:
            return False
        # Anyone with a seat row: a player, one a computer stands in for, and one who
        # played until their time ran out and left the seat to a substitute.
        held = models.Q(user=user) | models.Q(stood_in_for=user)
        return Seat.every.filter(held, game=self).exists()

    def left_by(self, user) -> bool:
        """``user`` ran out of time and left a seat of this game to a substitute: none
        of its seats is for them again, or they would get a fresh clock."""
        if not user.is_authenticated:
            return False
        return Seat.every.filter(game=self, user=user, vacated=True).exists()

    def stood_in_seat(self, user) -> "Seat | None":
        """The seat a computer player holds for ``user`` (they timed out), if any."""
        if not user.is_authenticated:
            return None
        return self.seats.filter(stood_in_for=user).first()

    @property
    def was_played(self) -> bool:
        """Started at some point, so it has a board (even if aborted later)."""
        return self.started_at is not None and self.status != self.Status.OPEN

    @property
    def chat_open(self) -> bool:
        """Whether the players may talk now: the engine may close the chat while
        the game runs (a team game whose rules forbid talking); it opens at the end."""
        if self.status == self.Status.ACTIVE:
            allowed = getattr(self.engine, "chat_allowed", None)
            return allowed is None or allowed(self.players, self.options)
        return self.status == self.Status.FINISHED

    @property
    def has_bank(self) -> bool:
        """Each seat has a bank of time (games.clock), not the game a time per move."""
        return self.bank_start is not None

    @property
    def clock_paused(self) -> bool:
        return self.status == self.Status.ACTIVE and self.paused_remaining is not None

    @property
    def agreed_pause(self) -> bool:
        """The clock stands still because the players agreed to pause (``games.pause``)."""
        return self.status == self.Status.ACTIVE and self.paused_until is not None

    @property
    def open_seats(self) -> list[int]:
        """Seat numbers of a running game that wait for a substitute (no player holds them)."""
        if self.status != self.Status.ACTIVE:
            return []
        return self.open_among(self.seats.values_list("number", flat=True))

    def open_among(self, taken) -> list[int]:
        """The seat numbers of this game that none of ``taken`` holds."""
        taken = set(taken)
        return [n for n in range(self.players) if n not in taken]

    def seat_of(self, user) -> "Seat | None":
        if not user.is_authenticated:
            return None
        return self.seats.filter(user=user).first()

    def is_full(self) -> bool:
        return self.seats.count() >= self.players


class HeldSeats(models.Manager):
    """The seats of players in their games: every seat but those left to a substitute.

    It is the default manager, so ``game.seats`` and every seat query hold only these;
    a player's own lists read ``Seat.every``, in which the games they left stay theirs.
    (Joins in filters, ``Game.objects.filter(seats__...)``, see every seat.)
    """

    def get_queryset(self):
        return super().get_queryset().filter(vacated=False)


class AllSeats(models.Manager):
    """Every seat, those left to a substitute too (``Seat.vacated``)."""


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats"
    )
    # The engine's seat number, drawn when the game starts.
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    to_move = models.BooleanField(default=False)
    to_move_since = models.DateTimeField(null=True, blank=True)
    # A game with banks (Game.bank_start): the seat's time left as of ``bank_since``,
    # which is set while the bank runs (the seat is to move and nothing stops the clock).
    bank = models.DurationField(null=True, blank=True)
    bank_since = models.DateTimeField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    # The player a computer player stands in for (policy STAND_IN): they may take the seat back.
    stood_in_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="stood_in_seats",
    )
    # Whose seat it is: the player, or the player a computer stands in for. A player's
    # lists walk this column (seat_person_ended), so that a game a computer finished for
    # them is still theirs. Kept by save(); code that writes seats in bulk sets it itself.
    # When that player's account is deleted the seat is nobody's (None) until it is saved
    # again, then the computer's: either way it is in no one's lists but the computer's.
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        db_index=False,  # seat_person_ended starts with it
    )
    # When the player last had the game page open (updated at most once a
    # minute): nobody is mailed about a game they are looking at.
    last_seen = models.DateTimeField(null=True, blank=True)
    # The position the player last took in (the game's version and its moves in
    # force then), moved on when they act or dismiss "since you last looked".
    seen_version = models.PositiveIntegerField(null=True, blank=True)
    seen_move_count = models.PositiveIntegerField(null=True, blank=True)
    # When the game ended (its finished_at; for a game stopped before it started, which
    # has none, the time it was stopped); None while it is open or running. A copy, so
    # that a player's lists (my games, the archive's "mine") walk one index on the seat
    # in their order instead of reading every game of the player: games.play sets it
    # wherever a game with seats ends (_finish, abort).
    ended_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The player ran out of time and left the seat to a substitute (timeout policy
    # SUBSTITUTE): the row stays, with its number and the time they left as ended_at, so
    # that the game stays in their lists (my games, the archive, the profile) and nowhere
    # else. The substitute gets a new row with the same number.
    vacated = models.BooleanField(default=False, editable=False)

    objects = HeldSeats()  # the default: game.seats, prefetches, the admin
    every = AllSeats()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=models.Q(vacated=False),
                name="unique_seat_number",
            ),
        ]
        ordering = ["number", "joined_at", "pk"]
        indexes = [
            # The "your turn" count on every page and the next game waiting for a player.
            models.Index(fields=["user", "to_move"], name="seat_user_to_move"),
            # A player's running games (ended_at IS NULL) and their finished ones, newest first.
            models.Index(fields=["user", "ended_at", "id"], name="seat_user_ended"),
            # The same for the person whose seat it is (my games, the archive, the profile).
            models.Index(fields=["person", "ended_at", "id"], name="seat_person_ended"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}"

    def save(self, *args, **kwargs):
        self.person_id = self.stood_in_for_id or self.user_id
        fields = kwargs.get("update_fields")
        if fields is not None and {"user", "stood_in_for"} & set(fields):
            kwargs["update_fields"] = {*fields, "person"}
        super().save(*args, **kwargs)


class Move(models.Model):
    """One atomic action. Append-only: taking back marks a row undone.

    Numbers run 1, 2, ... over all rows, so a game has ``move_count +
    undo_count`` of them and ``play.act`` numbers the next without counting
    (``check_replays`` reports a game where this does not hold).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    undone = models.BooleanField(default=False)
    # A step only its player saw (``engine.secret``): the others' history skips it.
    # Rows written before the flag existed are False: their numbers stay as shown then.
    secret = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_move_number")
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number}"


class Snapshot(models.Model):
    """The engine state after the first ``move_count`` moves in force, stored at
    turn hand-overs so no page replays more than one turn (``games.replay``).

    Derived data: the move log stays the truth, a snapshot can be deleted at any
    time (it is rebuilt when next needed) and ``check_replays`` compares each
    one with a full replay. ``state`` is ``games.statecodec`` JSON, compressed.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    move_count = models.PositiveIntegerField()
    # The number of the last move in force it includes: the replay goes on after it.
    last_number = models.PositiveIntegerField()
    format = models.PositiveSmallIntegerField()
    state = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "move_count"], name="one_snapshot_per_position")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.move_count}"


class Premove(models.Model):
    """Actions a player queued for their next turn while waiting for it (``games.premoves``).

    Nobody but its player ever sees it: it is not a move until the turn comes and every
    action in it is legal then (the hand-over's transaction plays it), and no page,
    export, history, admin list or mail of anyone else reads this table. Left over as
    ``dropped`` (with the reason) when the turn came and one of the actions was not legal.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    # [{"action": <action>, "label": <Message>}, ...] in the order they are played.
    actions = models.JSONField(default=list)
    # Set when the turn came and the queue could not be played: the engine's Message.
    dropped = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_premove_queue_per_player")
        ]

    def __str__(self) -> str:
        return f"queue of seat {self.seat} in {self.game_id}"


class Pause(models.Model):
    """One agreed pause of a game's clock (``games.pause``): when it began, until when it
    was agreed and when (and how) it ended; the days used count against ``Game.pause_days``."""

    class Ended(models.TextChoices):
        TIME = "time", _("its time was up")
        AGREED = "agreed", _("the players agreed to resume")
        MODERATOR = "moderator", _("a moderator ended it")
        GAME_OVER = "game_over", _("the game ended")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pauses")
    began_at = models.DateTimeField()
    until = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    ended = models.CharField(max_length=10, choices=Ended.choices, blank=True)

    class Meta:
        ordering = ["game", "began_at"]

    def __str__(self) -> str:
        return f"pause of {self.game_id} from {self.began_at:%Y-%m-%d}"


class TurnTakeBack(models.Model):
    """A turn taken back after it was handed over, as every player agreed
    (``games.takeback``): the moves it undid (the ``moves`` in force numbered ``first``
    to ``last``, marked undone in the log) and the moves in force after it, for the
    history."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turn_takebacks")
    seat = models.PositiveSmallIntegerField()
    first = models.PositiveIntegerField()
    last = models.PositiveIntegerField()
    moves = models.PositiveIntegerField()
    after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "last"]

    def __str__(self) -> str:
        return f"{self.game_id}: seat {self.seat} took back {self.first}-{self.last}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.TextField(max_length=settings.CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(_("hidden by a moderator"), default=False)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Receipt(models.Model):
    """A request that changed a game, by its client-made id: a retry of it (the
    answer was lost on the way) is answered "recorded" instead of acting twice."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    request_id = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user", "request_id"], name="one_receipt_per_request"
            )
        ]

    KEPT = timedelta(days=1)

    def __str__(self) -> str:
        return f"{self.request_id} in {self.game_id}"

    @classmethod
    def prune(cls) -> int:
        return cls.objects.filter(created_at__lt=timezone.now() - cls.KEPT).delete()[0]


class VacationDay(models.Model):
    """A day on which a player was (or is booked to be) on vacation.

    Counting these rows, not the current ``vacation_until``, is what makes the
    yearly allowance hold: clearing the date and setting it again cannot
    give back a day that has begun.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_days"
    )
    day = models.DateField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_vacation_day")]
        ordering = ["user", "day"]

    def __str__(self) -> str:
        return f"{self.user} {self.day}"


def new_calendar_secret() -> str:
    return secrets.token_urlsafe(12)


class CalendarKey(models.Model):
    """The secret inside a user's calendar feed link; a new one revokes the old link."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_key"
    )
    secret = models.CharField(max_length=32, default=new_calendar_secret)
    issued_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar key of {self.user}"


class Spectator(models.Model):
    """A signed-in player without a seat who looked at a running public game lately
    (``games.spectators``): the games to watch weigh a game by how many did. Kept for
    ``games.spectators.WINDOW`` (the privacy sweep deletes older rows)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_spectator_row_per_game")
        ]
        indexes = [models.Index(fields=["game", "seen_at"], name="spectators_lately")]

    def __str__(self) -> str:
        return f"{self.user_id} watching {self.game_id}"
