"""The rules of a game's clock, together: the bank of time per seat (``bank``: pure
functions of a seat's times), the named paces (``paces``), how the banks apply to a
game's seats (``seats``), the sweep's questions (``deadlines``), agreed pauses' time
rules (``pause``) and vacation days (``vacation``).

The operations that lock a game and change it stay in ``games.play`` and ``games.pause``,
which use these rules (``games.play`` imports this package, so nothing here imports it).
"""

from .bank import Bank, Pace
from .paces import NamedPace, named, pace_for, paces
from .seats import clock_state, pace_of
from .text import duration, pace_text

__all__ = [
    "Bank",
    "NamedPace",
    "Pace",
    "clock_state",
    "duration",
    "named",
    "pace_for",
    "pace_of",
    "pace_text",
    "paces",
]
