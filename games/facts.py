"""What the feature apps' parts of a game page read about the game and its viewer,
read once for the page: the named page key parts (``games.extend.add_key_part``).

A part that has nothing to show in most games (no tournament, no open request, no
cancel vote) asks its fact first and reads its own rows only when there is something
there: one query for all the parts of a move's answer instead of one or two each, and
none on a page the cache key was just worked out for (``games.pagecache`` keeps the
values it read with the seats).
"""

from __future__ import annotations

from typing import Any

from . import extend
from .rows import planned_cursor


def remember(request, game_id: int, parts: list[str], values: list[Any]) -> None:
    """The key parts' ``values`` (in the order of ``parts``) read for ``request``'s
    page of game ``game_id``, for the parts drawn on it."""
    index = {sql: n for n, sql in enumerate(parts)}
    named = {name: values[index[sql]] for name, sql in extend.key_names().items() if sql in index}
    request.page_facts = (game_id, _user_id(request.user), named)


def _user_id(user) -> int | None:
    return user.pk if user.is_authenticated else None


def fact(context, name: str) -> Any:
    """The value of the key part named ``name`` for the page drawn with ``context``."""
    return of_page(context["page"], name, context.get("request"))


def of_page(page, name: str, request=None) -> Any:
    """The value of the key part named ``name`` for ``page`` (a ``BoardPage``), read
    with the others once per page, or taken from what the page's key read."""
    facts = page.memo.get("facts")
    if facts is None:
        kept = getattr(request, "page_facts", None)
        # Only what was read for this game and this viewer: a fact may be the viewer's own.
        if kept is not None and kept[:2] == (page.game.pk, page.user_id):
            facts = kept[2]
        else:
            facts = _read(page.game.pk, page.user_id)
        page.memo["facts"] = facts
    return facts[name]


def _read(game_id: int, user_id: int | None) -> dict[str, Any]:
    names = extend.key_names()
    if not names:
        return {}
    params = {"game": game_id, "user": user_id, **extend.key_params()}
    with planned_cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(names.values())}", params)
        row = cursor.fetchone()
    return dict(zip(names, row, strict=True))
