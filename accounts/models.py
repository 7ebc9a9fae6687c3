import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

TIME_ZONES = sorted(zoneinfo.available_timezones())
REMINDER_CHOICES = [
    (0, _("never")),
    (12, _("after 12 hours")),
    (24, _("after 1 day")),
    (48, _("after 2 days")),
]
DIGEST_CHOICES = [(None, _("no: one e-mail per turn"))] + [
    (hour, f"{hour:02d}:00") for hour in range(24)
]


# A deleted account's stored display name (``accounts.erase``), one string in every
# language; ``User.name`` shows it in the reader's.
DELETED_NAME = "Deleted player {number}"


class User(AbstractUser):
    # What a player sets on the settings page (and a moderator sees in the admin).
    PREFERENCE_FIELDS = (
        "display_name",
        "language",
        "time_zone",
        "theme",
        "notify_turn",
        "notify_at_once",
        "notify_reminder_hours",
        "notify_last_warning",
        "notify_game_end",
        "notify_mention",
        "digest_hour",
        "quiet_from",
        "quiet_until",
        "vacation_until",
        "signin_links",
        "show_online",
        "show_local_time",
    )

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Leave empty to follow your browser."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        choices=[(tz, tz) for tz in TIME_ZONES],
    )

    # Light or dark colours (static/css/site.css): "system" follows the device's
    # prefers-color-scheme, as every page does for visitors who are not signed in.
    class Theme(models.TextChoices):
        SYSTEM = "system", _("as my device says")
        LIGHT = "light", _("light")
        DARK = "dark", _("dark")

    theme = models.CharField(
        _("colours"), max_length=8, choices=Theme.choices, default=Theme.SYSTEM
    )
    notify_turn = models.BooleanField(_("e-mail me when it is my turn"), default=True)
    # Off: no turn e-mail while the player has the game open (notify.compose.SEEN_RECENTLY);
    # it goes a few minutes after they leave its page. On: at once, even while they look.
    notify_at_once = models.BooleanField(
        _("e-mail me at once, even while I have the game open"), default=False
    )
    notify_reminder_hours = models.PositiveSmallIntegerField(
        _("remind me if I have not moved"), choices=REMINDER_CHOICES, default=24
    )
    notify_last_warning = models.BooleanField(
        _("warn me when a quarter of my time is left"), default=True
    )
    notify_game_end = models.BooleanField(
        _(
            "e-mail me when a game starts or ends, and about invitations, rematches and "
            "requests to cancel"
        ),
        default=True,
    )
    digest_hour = models.PositiveSmallIntegerField(
        _("one e-mail a day for all games, at"),
        choices=DIGEST_CHOICES,
        null=True,
        blank=True,
        help_text=_("Collects your turn e-mails into one a day, at this hour of your time zone."),
    )
    # Both empty (or equal): no quiet hours. Empty for a new player: e-mail at any hour
    # until they choose hours themselves (the help text says so).
    quiet_from = models.TimeField(_("no e-mail from"), null=True, blank=True)
    quiet_until = models.TimeField(
        _("no e-mail until"),
        null=True,
        blank=True,
        help_text=_(
            "E-mail that falls in these hours waits until they end (your time zone). "
            "Both empty, as for a new account: e-mail at any hour."
        ),
    )
    vacation_until = models.DateField(
        _("on vacation until"),
        null=True,
        blank=True,
        help_text=_("No turn e-mails are sent while you are on vacation."),
    )

    notify_mention = models.BooleanField(
        _("e-mail me when someone mentions me (@name) in a game's chat"), default=True
    )
    # notify.signin: one-click links in turn mails and pushes (off unless allowed).
    signin_links = models.BooleanField(
        _("links in my turn e-mails and pushes sign me in"),
        default=False,
        help_text=_(
            "Each link opens its game signed in, once, for 7 days, and stops working "
            "when you change your password. Anyone who can read your e-mail can use it."
        ),
    )
    # Others see a dot beside the player's name while they use the site
    # (``accounts.presence``); off, their visits are not even recorded.
    show_online = models.BooleanField(
        _("show others when I am online"),
        default=True,
        help_text=_(
            "A green dot beside your name in games, lists and on your profile while you "
            "have used the site in the last few minutes."
        ),
    )
    # Others see the time where the player is, and whether it falls in their quiet hours,
    # beside their name in a game's header (``accounts.local_time``): off unless chosen.
    show_local_time = models.BooleanField(
        _("show my local time to other players"),
        default=False,
        help_text=_(
            "Beside your name in your games: what time it is for you (your time zone) and "
            "whether it falls in your quiet hours, so that nobody waits for you at night."
        ),
    )
    # When the player last asked for a page (at most once a minute: accounts.presence).
    # Not shown as a time and never in a page's key (games.pagecache.UNSHOWN): pages
    # key the dot it decides, whether they were seen in the last few minutes.
    last_seen = models.DateTimeField(null=True, blank=True, editable=False)

    # A computer player (``botplay``): plays through the same rules, is never
    # rated against people, and is shown as "computer" wherever it is listed.
    is_bot = models.BooleanField(_("computer player"), default=False)

    # The last download of the player's data (``accounts.export``): one per
    # DATA_EXPORT_INTERVAL_MINUTES, the export reads every game they played.
    data_exported_at = models.DateTimeField(null=True, blank=True, editable=False)

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The player's profile: the frame's pages link names here without knowing
        which app draws it."""
        return reverse("profile", args=[self.username])

    @property
    def name(self) -> str:
        if self.is_bot:
            from botplay.accounts import display_name  # the bot's name in the reader's language

            return display_name(self)
        # Only the display name is read: lists load players with few columns (``only``).
        if self.display_name == DELETED_NAME.format(number=self.pk):
            return gettext("Deleted player %(number)d") % {"number": self.pk}
        return self.display_name or self.username

    @property
    def is_online(self) -> bool:
        """Seen on the site in the last few minutes, and willing to be shown so."""
        from .presence import is_online  # the rule lives beside its recording

        return is_online(self)

    def on_vacation(self) -> bool:
        return bool(self.vacation_until and self.vacation_until >= timezone.localdate())
