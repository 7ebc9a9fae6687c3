"""A suggested move in a practice game: what the hard computer player would do in the
viewer's seat, decided from what that seat may see (``bots.choose`` starts from
``engine.view(state, seat)`` and plays only on copies whose secrets are redrawn).

Only in a practice game of the viewer's: every other seat is a computer playing for
itself. Never where another person plays (a computer standing in for a player who ran
out of time counts as that person: they may come back), so never in a rated game.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

import bots
from enginekit import N_, msg
from games import extend, replay, text
from games.actions import compact_json
from games.models import Game
from games.play import PlayError
from games.rows import read_seats

STRENGTH = "strong"
# The site's decision budget (bots.Budget: within a second); tests fix it to playouts alone.
BUDGET = bots.Budget()


def is_practice_for(game: Game, seats, user) -> bool:
    """``user`` holds a seat of the running ``game`` and every other seat is a computer
    playing for itself (``seats``: the game's seats with their players)."""
    if game.status != Game.Status.ACTIVE or not user.is_authenticated:
        return False
    if not any(seat.user_id == user.pk for seat in seats):
        return False
    return all(
        seat.user.is_bot and seat.stood_in_for_id is None
        for seat in seats
        if seat.user_id != user.pk
    )


def suggest(game: Game, user) -> dict[str, str]:
    """The move to suggest to ``user``'s seat now: its JSON as the board's controls carry
    it (``data-act``), its label and its reason in the reader's language. What an app
    suggests comes first (``extend.suggestion``: a first game's lesson); otherwise the
    hard computer player's choice, with the reason its evaluation gives (``bots.explain``)."""
    seats = read_seats(game)
    if not is_practice_for(game, seats, user):
        raise PlayError(_("Suggestions are only for practice games against the computer."), 403)
    seat = next(s for s in seats if s.user_id == user.pk)
    state = replay.current_state(game)
    engine = game.engine
    view = engine.view(state, seat.number)
    if not view.get("actions"):
        raise PlayError(_("It is not your turn."), 409)
    names = {s.number: s.user.name for s in seats}
    taught = extend.suggestion(game, user, view)
    if taught is not None:
        action, reason = taught["action"], taught["reason"]
    else:
        salt = f"hint:{game.pk}:{game.move_count}"
        action = bots.choose(
            engine, state, seat.number, STRENGTH, budget=BUDGET, salt=salt, players=game.players
        )
        reason = say_why(
            game, view, bots.explain(engine, state, seat.number, action, game.players, salt)
        )
    wanted = compact_json(action)
    label = next(
        (entry["label"] for entry in view["actions"] if compact_json(entry["action"]) == wanted),
        None,
    )
    return {
        "act": wanted,
        "label": text.render_for(label, names, seat.number) if label else "",
        "reason": text.render_for(reason, names, seat.number) if reason else "",
    }


def say_why(game: Game, view: dict, found: dict) -> dict | None:
    """The bot's reason (``bots.explain``: a code and ids) as a Message: in the title's
    words (``GameKind.reason``), or in the words of the codes every title shares."""
    phrase = game.kind_info.reason
    said = phrase(found, view) if phrase is not None else None
    if said is not None:
        return said
    if found["code"] == "end":
        return msg(N_("Nothing more this turn would improve your position: end it here."))
    if found["code"] == "best":
        return msg(
            N_(
                "Of the {tried} moves you may make, this one came out best when the computer "
                "played the game on from each."
            ),
            tried=found["tried"],
        )
    return None


def hint_part(context) -> dict | None:
    """The "Suggest a move" button, on the viewer's turn in their practice game."""
    page = context["page"]
    if page.history or not page.my_turn:
        return None
    if not is_practice_for(context["game"], page.seats, context["request"].user):
        return None
    return {}
