"""One e-mail = three templates: ``emails/<kind>-subject.txt``, ``-body.txt``, ``-body.html``.

Unsubscribe and mute links carry a signed token, so they work without logging
in; they never expire, since a mail may be read months later.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

UNSUBSCRIBE_SALT = "notify.unsubscribe"
MUTE_SALT = "notify.mute"

# Which preference an unsubscribe link of each kind switches off, and to what.
UNSUBSCRIBE = {
    "turn": ("notify_turn", False),
    "digest": ("notify_turn", False),
    "reminder": ("notify_reminder_hours", 0),
    "last_warning": ("notify_last_warning", False),
    "game_started": ("notify_game_end", False),
    "game_finished": ("notify_game_end", False),
    "stood_in": ("notify_game_end", False),
    "seat_opened": ("notify_game_end", False),
    "cancel_asked": ("notify_game_end", False),
    "invited": ("notify_game_end", False),
    "rematch_offered": ("notify_game_end", False),
    "mentioned": ("notify_mention", False),
    "premove_dropped": ("notify_turn", False),
    "pause_asked": ("notify_game_end", False),
    "resume_asked": ("notify_game_end", False),
    "take_back_asked": ("notify_game_end", False),
}


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in UNSUBSCRIBE:
        return None
    return data.get("u"), data["k"]


def mute_token(user, game) -> str:
    return signing.dumps({"u": user.pk, "g": game.pk}, salt=MUTE_SALT)


def read_mute_token(token: str) -> tuple[int, int] | None:
    try:
        data = signing.loads(token, salt=MUTE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    return data.get("u"), data.get("g")


def links(user, kind: str, game=None) -> dict[str, str]:
    found = {
        "unsubscribe_url": absolute(reverse("unsubscribe", args=[unsubscribe_token(user, kind)])),
        "settings_url": absolute(reverse("settings")),
    }
    if game is not None:
        found["game_url"] = absolute(game.get_absolute_url())
        found["mute_url"] = absolute(reverse("mute_link", args=[mute_token(user, game)]))
    return found


def make_message(kind: str, to: str, context: dict) -> EmailMultiAlternatives:
    """Render the trio for ``kind`` (in the active language) into one message."""
    subject = render_to_string(f"emails/{kind}-subject.txt", context)
    subject = " ".join(subject.split())
    text = render_to_string(f"emails/{kind}-body.txt", context)
    html = render_to_string(f"emails/{kind}-body.html", context)
    headers = {}
    if context.get("unsubscribe_url"):
        headers["List-Unsubscribe"] = f"<{context['unsubscribe_url']}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers)
    message.attach_alternative(html, "text/html")
    return message
