"""What the notes app adds to the game page (``games.extend``): the viewer's own note at
the foot of the page, outside the board area, so a new board swapped in (a move, a poll,
the planning board) leaves the box being typed in alone."""

from __future__ import annotations

from django.urls import reverse

from games import extend

from .keeping import text_of
from .models import MAX_LENGTH, Note


def _note(context) -> dict | None:
    # page.viewer is the viewer's seat: a spectator, a visitor or an outsider has none,
    # and a team partner's seat is theirs, not the author's (the note is the user's).
    page = context.get("page")
    if page is None or page.viewer is None:
        return None
    game, user = context["game"], context["request"].user
    return {
        "note_text": text_of(game, user),
        "note_max": MAX_LENGTH,
        "note_url": reverse("game_note", args=[game.pk]),
    }


def register() -> None:
    notes = Note._meta.db_table
    extend.add_key_part(
        f"(SELECT revision FROM {notes} WHERE game_id = %(game)s AND user_id = %(user)s)"
    )
    extend.add_part("game-foot", "notes/_note.html", _note, order=10)
