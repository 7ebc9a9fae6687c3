"""What tournaments and ladders add to the frame's pages (``games.extend``): the open
tournaments and the ladders in the lobby, the player's tournaments and ladders at the
top of My games, and on a tournament's or ladder's game which one it belongs to."""

from __future__ import annotations

from games import extend, facts

from . import ladders, lookup
from .models import LadderGame, Table


def _lobby(context) -> dict:
    return {"open_tournaments": lookup.open_for_entries(), "ladders": lookup.active_ladders()}


def _my_games(context) -> dict | None:
    user = context["user"]
    tournaments = lookup.tournaments_of(user)
    ladder_entries = ladders.entries_of(user)
    if not tournaments and not ladder_entries:
        return None
    return {"my_tournaments": tournaments, "my_ladders": ladder_entries}


def _game_header(context) -> dict | None:
    table = facts.fact(context, "tournaments.table")
    if table is None and facts.fact(context, "tournaments.ladder") is None:
        return None  # most games: known from the page's facts, without a query
    found = lookup.competition_of(context["game"])
    return found and {"competition": found}


def register() -> None:
    tables, ladder_games = Table._meta.db_table, LadderGame._meta.db_table
    # A game's table or ladder is set when the game is created and never changes; the
    # key holds them anyway, so a page can never outlive what its header says.
    extend.add_key_part(
        f"(SELECT MAX(id) FROM {tables} WHERE game_id = %(game)s)", name="tournaments.table"
    )
    extend.add_key_part(
        f"(SELECT MAX(id) FROM {ladder_games} WHERE game_id = %(game)s)", name="tournaments.ladder"
    )
    extend.add_part("lobby", "tournaments/_lobby.html", _lobby)
    extend.add_part("my-games", "tournaments/_my_games.html", _my_games, order=30)
    extend.add_part("game-header", "tournaments/_game_header.html", _game_header)
