"""Times of the clock in words, in the reader's language ("1 day, 3 hours")."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext

from .bank import Pace


def duration(span: timedelta) -> str:
    """``span`` in words, to the minute: the two largest units."""
    now = timezone.now()
    return timeuntil(now + max(span, timedelta(0)), now)


def pace_text(pace: Pace) -> str:
    """A bank's pace in words: "4 hours, +1 hour a turn, up to 8 hours"."""
    return gettext("%(start)s, +%(increment)s a turn, up to %(cap)s") % {
        "start": duration(pace.start),
        "increment": duration(pace.increment),
        "cap": duration(pace.cap),
    }
