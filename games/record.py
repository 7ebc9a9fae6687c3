"""A game as a JSON document, and the check that a record is what it claims.

Once a game is over its record is complete: options, players, every action
in force with its time, the result, and the seed with its salt, so anyone
can replay it with the engines (``manage.py verify_record FILE``) and check
the seed against the commitment shown while the game ran.

While a game runs, the export is the viewer's page as data: their view
(built by ``engine.view``, with the log they may read) and nothing else —
no seed, no move list (other seats' secret actions are moves too).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from enginekit import IllegalAction

from . import registry
from .models import Game
from .pages import board_page

FORMAT = "pbw-game-record"
FORMAT_VERSION = 1


class RecordError(Exception):
    """The record is malformed, or does not replay to what it claims."""


def _over(game: Game) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.ABORTED)


def export(game: Game, user) -> dict[str, Any]:
    seats = list(game.seats.select_related("user").order_by("number"))
    data: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.pk,
        "title": game.title,
        "kind": game.kind,
        "rules_version": game.rules_version,
        "players": game.players,
        "options": game.options,
        "seats": [{"number": s.number, "name": s.user.name} for s in seats],
        "status": game.status,
        "seed_commitment": game.seed_commitment,
        "started_at": _time(game.started_at),
    }
    if not _over(game):
        page = board_page(game, user)
        data.update({"complete": False, "viewer": page.viewer, "view": page.view})
        return data
    moves = game.moves.filter(undone=False).order_by("number")
    data.update(
        {
            "complete": True,
            "finished_at": _time(game.finished_at),
            "moves": [
                {"number": m.number, "seat": m.seat, "action": m.action, "at": _time(m.created_at)}
                for m in moves
            ],
            "result": game.result,
            "seed": game.seed,
            "seed_salt": game.seed_salt,
        }
    )
    return data


def _time(value) -> str | None:
    return value.isoformat() if value else None


def commitment(salt: str, seed: int) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def _normal(value: Any) -> Any:
    """As stored in the database and read back: tuples become lists, and so on."""
    return json.loads(json.dumps(value))


def _field(data: dict, name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RecordError(f"The record has no valid {name!r}.")
    return value


def verify(data: Any) -> dict[str, Any]:
    """Replay a complete record with its engine; return a summary or raise RecordError.

    Checked: the seed matches its commitment; every action is legal where it
    stands; the moves lead to the recorded result (the engine's own result,
    or the site's when a player resigned, ran out of time or was removed; an
    aborted game has no winners).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("This is not a game record.")
    if not data.get("complete"):
        raise RecordError(
            "This is the export of a running game: it has no seed and no moves to check."
        )
    kind = _field(data, "kind", str)
    rules_version = _field(data, "rules_version", int)
    players = _field(data, "players", int)
    options = _field(data, "options", dict)
    seed = _field(data, "seed", int)
    salt = _field(data, "seed_salt", str)
    moves = _field(data, "moves", list)
    status = _field(data, "status", str)
    result = _field(data, "result", dict)
    try:
        engine = registry.get(kind, rules_version).engine
    except KeyError:
        raise RecordError(f"Unknown game {kind!r} (rules version {rules_version}).") from None
    if commitment(salt, seed) != data.get("seed_commitment"):
        raise RecordError(
            "The seed does not match the commitment: the seed, the salt or the "
            "commitment was changed."
        )
    if not engine.min_players <= players <= engine.max_players:
        raise RecordError(f"{players} players cannot play this game.")
    try:
        state = engine.setup(players, options, seed)
    except (ValueError, KeyError, TypeError) as error:
        raise RecordError(f"The options cannot be set up: {error}") from None
    last = 0
    for move in moves:
        if not isinstance(move, dict):
            raise RecordError("A move in the record is not an object.")
        number, seat, action = move.get("number"), move.get("seat"), move.get("action")
        if not isinstance(number, int) or number <= last:
            raise RecordError(f"The move numbers are out of order after move {last}.")
        last = number
        if seat not in engine.active_seats(state):
            raise RecordError(f"Move {number}: seat {seat} was not to move.")
        try:
            state = engine.apply(state, seat, action)
        except IllegalAction as error:
            raise RecordError(f"Move {number} is not legal: {error}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            raise RecordError(f"Move {number} is not a valid action.") from None
    expected = _expected_result(engine, players, status, result, engine.result(state))
    if expected is not None:
        for key in ("winners", "ranking"):
            if _normal(expected[key]) != _normal(result.get(key)):
                raise RecordError(
                    f"The recorded {key} ({result.get(key)}) differ from the replay "
                    f"({expected[key]})."
                )
        if engine.result(state) is not None and _normal(expected) != _normal(result):
            raise RecordError("The recorded result differs from the replay.")
    return {"kind": kind, "moves": len(moves), "status": status, "winners": result["winners"]}


def _expected_result(engine, players: int, status: str, result: dict, replayed) -> dict | None:
    """What the result must be, given how the record says the game ended."""
    if replayed is not None:
        if status != Game.Status.FINISHED:
            raise RecordError("The moves end the game, but the record says it was not finished.")
        return replayed
    if status == Game.Status.ABORTED:
        if result.get("winners"):
            raise RecordError("An aborted game has no winners, but the record names some.")
        return None
    if status != Game.Status.FINISHED:
        raise RecordError("The record is of a game that is not over.")
    details = result.get("details") or {}
    ended_by = details.get("resigned")
    seats = [ended_by] if isinstance(ended_by, int) else details.get("timed_out")
    seats = seats if seats is not None else details.get("removed")
    if not isinstance(seats, list) or not all(isinstance(s, int) for s in seats):
        raise RecordError(
            "The moves do not end the game, and the record gives no resignation, "
            "timeout or removal that did."
        )
    # The same rule as games.play: the seats and their teams lose.
    teammates = getattr(engine, "teammates", lambda players, seat: [seat])
    losers = {mate for seat in seats for mate in teammates(players, seat)}
    winners = [n for n in range(players) if n not in losers]
    return {"winners": winners, "ranking": winners + sorted(losers)}
