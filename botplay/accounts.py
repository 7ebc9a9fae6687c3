"""Bot accounts: the seat's user says how strong its player is.

Several accounts per strength ("Computer (hard)", "Computer (hard) 2", ...):
a user holds at most one seat of a game, so two hard computer players in one
game must be two accounts. The strength is in the user name, the number after it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext_lazy

import bots

PREFIX = "computer-"
NAMES = {
    "random": gettext_lazy("Computer (easy)"),
    "greedy": gettext_lazy("Computer (medium)"),
    "strong": gettext_lazy("Computer (hard)"),
}
# The strength a computer player gets when it stands in for a player who timed out.
STAND_IN_STRENGTH = "greedy"


def _username(strength: str, number: int) -> str:
    return PREFIX + strength if number == 1 else f"{PREFIX}{strength}-{number}"


def _parse(username: str) -> tuple[str, int] | None:
    """(strength, number) of a bot's user name, or None if it is not one."""
    if not username.startswith(PREFIX):
        return None
    rest = username.removeprefix(PREFIX)
    strength, _, number = rest.partition("-")
    if strength not in bots.STRENGTHS:
        return None
    if not number:
        return strength, 1
    if not number.isdigit() or int(number) < 2:
        return None
    return strength, int(number)


def bot_user(strength: str, number: int = 1):
    """The ``number``-th account of ``strength``, made on first use."""
    if strength not in bots.STRENGTHS:
        raise ValueError(f"unknown strength: {strength!r}")
    if number < 1:
        raise ValueError(f"bot accounts are numbered from 1, not {number}")
    with translation.override("en"):  # stored for the admin; pages use display_name()
        name = str(NAMES[strength]) if number == 1 else f"{NAMES[strength]} {number}"
    user, _ = get_user_model().objects.get_or_create(
        username=_username(strength, number),
        defaults={"is_bot": True, "display_name": name, "notify_turn": False},
    )
    return user


def free_bot_user(strength: str, taken_user_ids):
    """The lowest-numbered account of ``strength`` that holds none of ``taken_user_ids``."""
    taken = set(taken_user_ids)
    number = 1
    while True:
        user = bot_user(strength, number)
        if user.pk not in taken:
            return user
        number += 1


def strength_of(user) -> str:
    parsed = _parse(user.username) if user.is_bot else None
    return parsed[0] if parsed else "random"


def display_name(user) -> str:
    """A bot's name in the reader's language ("Computer (schwer) 2")."""
    parsed = _parse(user.username)
    if parsed is None:
        return user.display_name or user.username
    strength, number = parsed
    name = str(NAMES[strength])
    return name if number == 1 else f"{name} {number}"
