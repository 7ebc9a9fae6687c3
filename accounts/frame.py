"""What accounts adds to the frame's pages (``games.extend``): the dot of a player who
is online, beside their name in a game's header and in the lists of games; the local time
of a player who shows it, beside their name in a game's header."""

from __future__ import annotations

from games import extend

from . import local_time, presence


def register() -> None:
    extend.add_header_mark(presence.header_mark)
    extend.add_key_part(presence.key_sql(), presence.key_params)
    extend.add_header_mark(local_time.header_mark)
    extend.add_key_part(local_time.key_sql(), local_time.key_params)
    extend.add_name_mark(presence.online_in, presence.list_mark)
