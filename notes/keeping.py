"""Reading and saving a player's note (the views and the game page's part call these)."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import MAX_LENGTH, Note


class NoteError(Exception):
    pass


def may_keep(game, user) -> bool:
    """Only a player of the game (seated now) keeps a note on it."""
    return user.is_authenticated and game.seat_of(user) is not None


def text_of(game, user) -> str:
    return Note.objects.filter(game=game, user=user).values_list("text", flat=True).first() or ""


def save(game, user, text: str) -> Note:
    """Keep ``text`` as ``user``'s note on ``game``; NoteError (and nothing saved) when
    the user holds no seat in it or the text is too long."""
    if not may_keep(game, user):
        raise NoteError(_("Only the players of a game keep notes on it."))
    text = text.replace("\r\n", "\n")
    if len(text) > MAX_LENGTH:
        raise NoteError(
            _(
                "Not saved: a note may hold at most %(max)s characters, this one has %(n)s. "
                "Shorten it and it is saved again."
            )
            % {"max": MAX_LENGTH, "n": len(text)}
        )
    note, _created = Note.objects.get_or_create(game=game, user=user)
    Note.objects.filter(pk=note.pk).update(
        text=text, revision=F("revision") + 1, updated_at=timezone.now()
    )
    note.refresh_from_db()
    return note


def erase(user) -> None:
    """Every note of ``user`` (their account is deleted)."""
    Note.objects.filter(user=user).delete()


def export(user) -> list[dict]:
    """The user's notes, for their own data download."""
    return list(
        Note.objects.filter(user=user).order_by("game_id").values("game_id", "text", "updated_at")
    )
