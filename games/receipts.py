"""Idempotency by request id: an operation on a game runs at most once per (game,
person, client-made id), for the page's forms (``games.views.guarded``) and the API
(``api.acting``) alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, transaction

from .models import Game, Receipt

T = TypeVar("T")


class AlreadyRecorded(Exception):
    """The request id was seen before: the operation ran then, and does not again."""


def once(game: Game, user, request_id: str | None, operation: Callable[[], T]) -> T:
    """Run ``operation`` at most once per request id (None: no id, it just runs). The
    id is stored in the operation's own transaction, so a retry after an answer lost
    on the way finds it (``AlreadyRecorded``), and an operation refused stores none.
    Returns what ``operation`` returned."""
    with transaction.atomic():
        if request_id is not None:
            try:
                with transaction.atomic():
                    Receipt.objects.create(game=game, user=user, request_id=request_id)
            except IntegrityError:
                raise AlreadyRecorded from None
        return operation()
