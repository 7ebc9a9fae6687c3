"""One account per strength: the seat's user says how strong its player is."""

from __future__ import annotations

from django.contrib.auth import get_user_model

import bots

PREFIX = "computer-"
NAMES = {"random": "Computer (easy)", "greedy": "Computer (medium)", "strong": "Computer (hard)"}


def bot_user(strength: str):
    if strength not in bots.STRENGTHS:
        raise ValueError(f"unknown strength: {strength!r}")
    user, _ = get_user_model().objects.get_or_create(
        username=PREFIX + strength,
        defaults={"is_bot": True, "display_name": NAMES[strength], "notify_turn": False},
    )
    return user


def strength_of(user) -> str:
    strength = user.username.removeprefix(PREFIX)
    return strength if user.is_bot and strength in bots.STRENGTHS else "random"
