"""A viewer's legal actions, prepared for the clickable parts of a board."""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any

from . import text

# One encoder for every call: json.dumps with any option builds a new encoder each
# time, which cost more than the encoding on a board of 150 actions. An action is a
# small tree of plain data: no need to track the containers entered (cycles).
_COMPACT = json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False)


def compact_json(value: Any) -> str:
    """The one JSON spelling of an action that forms post back."""
    return _COMPACT.encode(value)


class BoardActions:
    """Each legal action with its JSON, its label in the reader's language, and
    ``vals`` for an ``hx-vals`` attribute (action plus the page token)."""

    def __init__(self, view: dict, names: dict[int, str], token: str = "") -> None:
        self.entries: list[dict[str, Any]] = []
        # The labels' words, each translated once per language (games.text.render);
        # the board translates its own words into the same memo (games.text.word_in).
        self.words = text.words_memo()
        words = self.words
        # json.dumps({"action": encoded, "version": token}) written out: the same
        # text, without building an encoder and a dict for each of 150 actions.
        vals_end = ', "version": ' + encode_basestring_ascii(token) + "}"
        for i, item in enumerate(view.get("actions") or []):
            action = item["action"]
            encoded = compact_json(action)
            self.entries.append(
                {
                    "index": i,
                    "action": action,
                    "json": encoded,
                    "label": text.render(item["label"], names, words),
                    "vals": '{"action": ' + encode_basestring_ascii(encoded) + vals_end,
                    "type": action.get("type"),
                }
            )
        # A board asks for the actions of one type many times over (one site,
        # one figure...): each question scans that type's entries only.
        self.by_type: dict[Any, list[dict[str, Any]]] = {}
        for e in self.entries:
            self.by_type.setdefault(e["type"], []).append(e)

    def all(self, **match: Any) -> list[dict]:
        entries = self.by_type.get(match.pop("type"), []) if "type" in match else self.entries
        return [e for e in entries if all(e["action"].get(k) == v for k, v in match.items())]

    def find(self, **match: Any) -> dict | None:
        found = self.all(**match)
        return found[0] if found else None
