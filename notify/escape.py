"""Text that players wrote (names, game titles, chat lines, tournament names), made inert
for the chat service a webhook posts to, by that service's own rules.

A post must say what it says and nothing more: no ``<!channel>`` ping in Slack, no
``@everyone`` or masked link ``[Your turn](https://ev.il)`` in Discord, no ``@room``
or HTML in Matrix. The only mention a post carries is the one the site puts there
itself: the configured handle of a player to move (``webhooks.mention``), which is
checked against the service's form of an id when it is saved (``forms.HandlesForm``).
The generic signed JSON carries the text as plain JSON strings: its receiver decides.
"""

from __future__ import annotations

import html
import re

# Slack's three control characters (api.slack.com, "Escaping text"): with them
# escaped, ``<!channel>``, ``<@U…>`` and ``<https://x|text>`` are shown, not acted on.
_SLACK = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})

# Discord's markdown: a backslash before any punctuation shows it as it is. The
# backslash itself first, so a name's own backslash cannot undo the next escape.
_DISCORD_MARKUP = re.compile(r"([\\*_~`|>#\-\[\]()<])")

# A word joiner after "@" keeps the text as it reads and breaks every mention a
# client finds in a message's body (``@everyone``, ``@here``, ``@room``, a user id).
_JOINER = "\u2060"


def slack(text: str) -> str:
    return text.translate(_SLACK)


def discord(text: str) -> str:
    return _DISCORD_MARKUP.sub(r"\\\1", text).replace("@", "@" + _JOINER)


def matrix_plain(text: str) -> str:
    return text.replace("@", "@" + _JOINER)


def matrix_html(text: str) -> str:
    return html.escape(matrix_plain(text))
