"""What the API shows of a game: built from the game page's own ``board_page``
(``engine.view(state, viewer)`` for the caller's seat, or a spectator's), never
from the state."""

from __future__ import annotations

from typing import Any

from games import extend, numbering, text
from games.actions import BoardActions
from games.models import Game, Seat
from games.pages import BoardPage, board_page

from . import botaccounts


def _time(value) -> str | None:
    return value.isoformat() if value else None


def players(game: Game) -> list[dict[str, Any]]:
    seats = list(game.seats.all())  # prefetched by the lists
    own_bots = botaccounts.bot_ids(s.user_id for s in seats)
    return [
        {
            "seat": seat.number if game.was_played else None,
            "username": seat.user.username,
            "name": seat.user.name,
            "bot": seat.user.is_bot or seat.user_id in own_bots,
        }
        for seat in sorted(seats, key=lambda s: s.number)
    ]


def summaries(games: list[Game]) -> list[dict[str, Any]]:
    """``summary`` of each game of a list, their move counts read together."""
    counts = numbering.public_move_counts(games)
    return [summary(game, counts[game.pk]) for game in games]


def summary(game: Game, move_count: int | None = None) -> dict[str, Any]:
    """What every viewer who may see the game reads of it in a list (``move_count``:
    its public move count, when the list read it)."""
    if move_count is None:
        move_count = numbering.public_move_count(game)
    return {
        "id": game.pk,
        "kind": game.kind,
        "title": game.title,
        "status": game.status,
        "players": game.players,
        "private": game.private,
        "rated": game.rated and not game.computer_played,
        "time_limit_days": game.time_limit_days,
        "version": game.version,
        "move_count": move_count,
        "deadline": _time(game.deadline),
        "created_at": _time(game.created_at),
        "seats": players(game),
    }


def my_seats(seats: list[Seat]) -> list[dict[str, Any]]:
    """The caller's games of a list of their seats, with their seat and turn."""
    return [
        {**data, "my_seat": seat.number, "my_turn": bool(seat.to_move)}
        for seat, data in zip(seats, summaries([seat.game for seat in seats]), strict=True)
    ]


def page_of(game: Game, user) -> BoardPage | None:
    """The caller's page of the game; None while it waits for players (no board yet)."""
    return board_page(game, user) if game.was_played else None


def game(game: Game, user) -> dict[str, Any]:
    page = page_of(game, user)
    data = summary(game)
    if page is None:
        return {**data, "my_seat": _seat_of(game, user), "my_turn": False, "view": None}
    return {
        **data,
        # Which rules the view follows (a title keeps old games on their rules): a
        # program deciding from the view rebuilds the position with that engine.
        "rules_version": game.rules_version,
        "my_seat": page.viewer,
        "my_turn": page.my_turn,
        # Sent back with an action (or the integer version) so a click made on a
        # position the caller no longer sees is refused.
        "token": page.token,
        "can_undo": page.can_undo,
        "result": page.result,
        "view": page.view,
    }


def _seat_of(game: Game, user) -> int | None:
    seat = game.seat_of(user)
    return seat.number if seat else None


def actions(game: Game, user) -> dict[str, Any]:
    page = page_of(game, user)
    if page is None:
        return {"version": game.version, "token": "", "actions": []}
    labelled = BoardActions(page.view, page.player_names).entries
    return {
        "version": game.version,
        "token": page.token,
        "prompt": text.render_for(page.view.get("prompt"), page.player_names, page.viewer),
        "actions": [{"action": e["action"], "label": e["label"]} for e in labelled],
    }


def history(game: Game, user) -> dict[str, Any]:
    """The caller's log, as their page's history panel reads it."""
    page = page_of(game, user)
    if page is None:
        return {"move_count": 0, "entries": []}
    entries = [
        {
            "move": entry.get("move"),
            "text": text.render_for(entry, page.player_names, page.viewer),
            "key": entry.get("key"),
            "args": entry.get("args") or {},
        }
        for entry in page.view.get("log") or []
    ]
    return {"move_count": page.numbers.total, "entries": entries}


def chat(game: Game, user) -> list[dict[str, Any]]:
    if not game.chat_count:
        return []
    return [
        {
            "id": line.pk,
            "username": line.user.username,
            "name": line.user.name,
            "text": line.text,
            "at": _time(line.created_at),
        }
        for line in extend.visible_chat(game, user)
    ]


def premove_queue(game: Game, user) -> dict[str, Any]:
    """The caller's queue for their next turn and what they may add to it now (the
    planning board's actions, from the rehearsal of that turn, ``games.planning``)."""
    from games import planning, premoves

    page = page_of(game, user)
    if page is None or page.viewer is None:
        return {"supported": False, "queued": [], "token": "", "actions": [], "problem": ""}
    premove = premoves.queue_of(game, user)
    dropped = premove is not None and premove.dropped is not None
    data = {
        "supported": page.plans,
        "queued": premoves.queued_actions(premove),
        "dropped": dropped,
        "token": "",
        "actions": [],
        "problem": "",
    }
    if page.may_plan:
        plan = planning.plan_for(page, user)
        data["problem"] = plan.problem
        if plan.page is not None and not plan.closed:
            labelled = BoardActions(plan.page.view, page.player_names).entries
            data["token"] = plan.page.token
            data["actions"] = [{"action": e["action"], "label": e["label"]} for e in labelled]
    return data


def agreement(request) -> dict[str, Any] | None:
    if request is None:
        return None
    return {
        "id": request.pk,
        "kind": request.kind,
        "status": request.status,
        "seat": request.seat,
        "until": _time(request.until),
        "asked_at": _time(request.created_at),
        "agreed": sorted(request.answers.values_list("user__username", flat=True)),
    }
