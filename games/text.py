"""Turn engine Messages into translated text for one viewer's page."""

from __future__ import annotations

import functools
import weakref
from typing import Any

from django.utils.translation import gettext, gettext_noop, pgettext, trans_real

# The kinds of display words an argument's name marks (see enginekit): a word may
# name a card and a faction alike (King of Siam's "Malai"), which German tells
# apart ("Malai", "Malaien"), so each kind is its own message context.
WORD_KINDS = ("card", "faction")


def _is_player_arg(name: str, value: Any) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (name == "player" or name.endswith("_player"))
    )


def _is_players_arg(name: str, value: Any) -> bool:
    """A list of seat numbers (the site's own messages, e.g. who ran out of time)."""
    return (
        isinstance(value, list)
        and (name == "players" or name.endswith("_players"))
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _name(names: dict[int, str], seat: int) -> str:
    if seat in names:  # the usual case, without translating the fallback
        return names[seat]
    return gettext("Seat %(n)d") % {"n": seat + 1}


def join_names(names: list[str]) -> str:
    """Names as one reads them: Anna; Anna and Bert; Anna, Bert and Carla (translated)."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


@functools.cache  # a few argument names, asked for once per action on a board
def word_kind(name: str) -> str | None:
    """The kind of display word an argument holds: ``card`` for ``card`` or ``*_card``."""
    return next((k for k in WORD_KINDS if name == k or name.endswith("_" + k)), None)


def word(value: Any, kind: str | None = None) -> str:
    """An engine's display word, translated; a card or faction name in its kind's context."""
    if not isinstance(value, str) or not value:
        return str(value)
    return pgettext(kind, value) if kind else gettext(value)


def word_in(memo: dict, value: Any, kind: str | None = None) -> str:
    """``word``, remembered in ``memo`` (``words_memo``): a board asks for the same few
    words (colours, kinds) hundreds of times, and each ``gettext`` looks up the active
    language anew."""
    if not isinstance(value, str):  # not translated (and perhaps not hashable)
        return word(value, kind)
    found = memo.get((kind, value))
    if found is None:
        found = memo[(kind, value)] = word(value, kind)
    return found


# The words translated so far, one memo per catalogue (the active language's
# translation object): a catalogue made anew (another LOCALE_PATHS in a test, a
# recompiled .mo under runserver) starts an empty memo, and the old one goes with it.
_MEMOS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MEMO_LIMIT = 20_000  # engine words and board places: a few hundred in practice


def words_memo() -> dict:
    """The memo of translated words for the active language (``render``, ``word_in``),
    kept across requests: a board's labels ask for the same words on every move."""
    catalogue = trans_real.catalog()
    memo = _MEMOS.get(catalogue)
    if memo is None or len(memo) > _MEMO_LIMIT:
        memo = _MEMOS[catalogue] = {}
    return memo


def render(message: dict | None, names: dict[int, str], memo: dict | None = None) -> str:
    """``memo``: the words translated so far in the active language (by default
    ``words_memo()``; a board that renders a hundred labels asks for it once)."""
    if not message:
        return ""
    if memo is None:
        memo = words_memo()
    raw_key = message.get("key", "")
    key = word_in(memo, raw_key) if isinstance(raw_key, str) else gettext(raw_key)
    args = {}
    for name, value in (message.get("args") or {}).items():
        if _is_player_arg(name, value):
            args[name] = _name(names, value)
        elif _is_players_arg(name, value):
            args[name] = join_names([_name(names, seat) for seat in value])
        elif isinstance(value, list):
            kind = word_kind(name)
            args[name] = ", ".join(word_in(memo, v, kind) for v in value)
        else:
            args[name] = word_in(memo, value, word_kind(name))
    try:
        return key.format(**args)
    except (KeyError, IndexError, ValueError):
        return key


# The sentence as told to the player it is about: "You resigned.", not their own name
# (the site's own reasons for an end; the engines' messages name every player alike).
ABOUT_YOU = {
    "{player} resigned.": gettext_noop("You resigned."),
    "{player} did not move in time and lost.": gettext_noop("You did not move in time and lost."),
    "{player} was removed from the game and lost.": gettext_noop(
        "You were removed from the game and lost."
    ),
}


def render_for(message: dict | None, names: dict[int, str], viewer: int | None) -> str:
    """``render``, told to the seat ``viewer``: a sentence about that seat alone in the
    second person (``ABOUT_YOU``)."""
    about_you = ABOUT_YOU.get((message or {}).get("key"))
    if about_you and viewer is not None and (message.get("args") or {}).get("player") == viewer:
        return gettext(about_you)
    return render(message, names)
