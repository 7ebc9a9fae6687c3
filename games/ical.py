"""A player's private calendar feed: one event per running game at its deadline.

The link carries a signed token holding the user's id and the secret of their
``CalendarKey``; a new secret (settings: "new link") makes every older link
answer 404. A game whose clock stands still for a vacation has no deadline,
so it has no event until the clock runs again.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .clock import seats as clock
from .models import CalendarKey, Game, Seat, new_calendar_secret

SALT = "games.calendar"


def _key(user) -> CalendarKey:
    return CalendarKey.objects.get_or_create(user=user)[0]


def _signer() -> signing.Signer:
    # No timestamp: the link must stay the same until the user asks for a new one.
    return signing.Signer(salt=SALT)


def feed_token(user) -> str:
    return _signer().sign_object([user.pk, _key(user).secret])


def feed_url(user) -> str:
    return settings.SITE_URL + reverse("calendar_feed", args=[feed_token(user)])


def new_link(user) -> None:
    """Revoke the user's calendar link by drawing a new secret."""
    key = _key(user)
    key.secret = new_calendar_secret()
    key.save(update_fields=["secret", "issued_at"])


def user_for_token(token: str):
    """The active user the token belongs to, or None if it is forged or revoked."""
    try:
        user_id, secret = _signer().unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    key = (
        CalendarKey.objects.filter(user_id=user_id, secret=secret, user__is_active=True)
        .select_related("user")
        .first()
    )
    return key.user if key else None


def build(user) -> bytes:
    """The iCalendar document of ``user``'s running games with a deadline."""
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    now = timezone.now()
    seats = (
        # ended_at=None: the running seats on seat_user_ended, not every game ever played.
        Seat.objects.filter(
            user=user, ended_at=None, game__status=Game.Status.ACTIVE, game__deadline__isnull=False
        )
        .select_related("game", "user")
        .order_by("game__deadline", "game_id")
    )
    with translation.override(user.language or settings.LANGUAGE_CODE):
        calendar = icalendar.Calendar()
        calendar.add("prodid", "-//Play by Web//deadlines//EN")
        calendar.add("version", "2.0")
        calendar.add("x-wr-calname", _("Play by Web: my deadlines"))
        for seat in seats:
            game = seat.game
            url = settings.SITE_URL + game.get_absolute_url()
            if seat.to_move:
                summary = _("Your move is due: %(title)s") % {"title": game.title}
            else:
                summary = _("Next move due: %(title)s") % {"title": game.title}
            event = icalendar.Event()
            # One UID per game: a calendar moves the event when the deadline moves.
            event.add("uid", f"game-{game.pk}-deadline@{host}")
            event.add("dtstamp", now)
            # With banks: when the player's own bank runs out (another's, while they wait).
            event.add("dtstart", (seat.to_move and clock.deadline_of(game, seat)) or game.deadline)
            event.add("summary", summary)
            event.add("description", f"{game.kind_name} · {url}")
            event.add("url", url)
            calendar.add_component(event)
    return calendar.to_ical()
