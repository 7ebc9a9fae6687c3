"""The named paces a game may be played at: a bank per seat (``bank.Pace``) under a name
the create form, tournaments, ladders and automatch offer.

The names are stored nowhere: a game keeps the pace's three times, so changing a pace here
never changes a running game. The fixed time per move (1, 3, 7 or 14 days) is not a pace:
``Game.time_limit_days`` with ``Game.bank_start`` None.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils.translation import gettext_lazy as _

from .bank import Pace

HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class NamedPace:
    key: str
    name: str
    pace: Pace

    @property
    def label(self) -> str:
        from django.utils.translation import gettext

        from .text import pace_text

        return gettext("%(name)s: %(pace)s") % {"name": self.name, "pace": pace_text(self.pace)}


# As Rally the Troops names its paces (Live, Fast, Slow), and a quick one for a game
# of several moves an evening.
_PACES = [
    NamedPace("quick", _("Quick"), Pace(4 * HOUR, 1 * HOUR, 8 * HOUR)),
    NamedPace("live", _("Live"), Pace(24 * HOUR, 4 * HOUR, 72 * HOUR)),
    NamedPace("fast", _("Fast"), Pace(72 * HOUR, 12 * HOUR, 120 * HOUR)),
    NamedPace("slow", _("Slow"), Pace(72 * HOUR, 36 * HOUR, 240 * HOUR)),
]


def paces() -> list[NamedPace]:
    """Every named pace, quickest first."""
    return list(_PACES)


def named(key: str) -> NamedPace | None:
    return next((p for p in _PACES if p.key == key), None)


def pace_for(key: str) -> Pace | None:
    """The pace named ``key``; None for "" (a time per move) or a name no longer offered."""
    found = named(key) if key else None
    return found.pace if found else None


def choices(per_move_label: str) -> list[tuple[str, str]]:
    """A form's choices of clock where only the named paces are offered: "" for the time
    per move (labelled ``per_move_label``), then each pace."""
    return [("", per_move_label)] + [(p.key, p.label) for p in _PACES]
