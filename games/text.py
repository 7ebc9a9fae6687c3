"""Turn engine Messages into translated text for one viewer's page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext


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
    return names.get(seat, gettext("Seat %(n)d") % {"n": seat + 1})


def join_names(names: list[str]) -> str:
    """Names as one reads them: Anna; Anna and Bert; Anna, Bert and Carla (translated)."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _word(value: Any) -> str:
    return gettext(value) if isinstance(value, str) and value else str(value)


def render(message: dict | None, names: dict[int, str]) -> str:
    if not message:
        return ""
    key = gettext(message.get("key", ""))
    args = {}
    for name, value in (message.get("args") or {}).items():
        if _is_player_arg(name, value):
            args[name] = _name(names, value)
        elif _is_players_arg(name, value):
            args[name] = join_names([_name(names, seat) for seat in value])
        elif isinstance(value, list):
            args[name] = ", ".join(_word(v) for v in value)
        else:
            args[name] = _word(value)
    try:
        return key.format(**args)
    except (KeyError, IndexError, ValueError):
        return key
