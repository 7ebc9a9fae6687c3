"""What notify adds to the frame's pages (``games.extend``): a player's switch for the
e-mail about one game, at the foot of its page."""

from __future__ import annotations

from games import extend
from games.facts import fact

from .compose import SEEN_RECENTLY
from .models import Mute


def _mute_form(context) -> dict | None:
    """The game's mail switch, and when the turn mail comes (the viewer's row, which
    holds their choice, is in the page's key)."""
    if context["page"].viewer is None:  # only a player gets mail about the game
        return None
    user = context["request"].user
    return {
        "muted": bool(fact(context, "notify.muted")),  # read with the page's key
        "turn_mail": user.notify_turn,
        "at_once": user.notify_at_once,
        "wait_minutes": int(SEEN_RECENTLY.total_seconds() // 60),
    }


def register() -> None:
    mutes = Mute._meta.db_table
    extend.add_key_part(
        f"(SELECT COUNT(*) FROM {mutes} WHERE user_id = %(user)s AND game_id = %(game)s)",
        name="notify.muted",
    )
    extend.add_part("game-foot", "notify/mute_form.html", _mute_form)
