"""What learn adds to the frame's pages (``games.extend``): in a first game, the rule
behind the step the learner is asked to take, at the top of the board; in the lobby,
a first game of each title to start."""

from __future__ import annotations

from games import extend, facts
from games.models import Game

from . import walkthrough
from .models import Walkthrough


def _is_walkthrough(context) -> bool:
    """Whether the viewer learns in the page's game. A first game is a practice game:
    any other (no computer ever played in it) is known without even the page's facts."""
    page = context["page"]
    return bool(
        context["request"].user.is_authenticated
        and page.game.computer_played
        and facts.fact(context, "learn.walkthrough")
    )


def _lesson(context) -> dict | None:
    """The explanation of the current step, for the learner at the latest position."""
    page = context["page"]
    if page.viewer is None or page.history:
        return None
    if not _is_walkthrough(context):
        return None
    game = context["game"]
    if game.status != Game.Status.ACTIVE:
        return {"lesson": None, "over": True, "rules_url_name": game.kind_info.rules_url_name}
    teach = game.kind_info.lesson
    found = teach(page.view) if teach is not None else None
    if found is None:
        return None
    return {"lesson": found, "over": False, "rules_url_name": game.kind_info.rules_url_name}


def _suggestion(game, user, view) -> dict | None:
    """In the learner's first game, "Suggest a move" names what the lesson teaches, with
    the lesson's reason, rather than a computer player's choice."""
    teach = game.kind_info.lesson
    if teach is None or not Walkthrough.objects.filter(game=game, learner=user).exists():
        return None
    found = teach(view)
    return found.get("suggest") if found else None


def _first_games(context) -> dict:
    return {"first_games": walkthrough.titles()}


def _first_games_for_newcomers(context) -> dict | None:
    """On "My games" of a player with no game at all: where a first game starts."""
    if context.get("seats") or context.get("finished"):
        return None
    return _first_games(context)


def register() -> None:
    walkthroughs = Walkthrough._meta.db_table
    # Made once with its game, never changed: whether the viewer learns in this game.
    extend.add_key_part(
        f"(SELECT COUNT(*) FROM {walkthroughs} WHERE game_id = %(game)s AND learner_id = %(user)s)",
        name="learn.walkthrough",
    )
    extend.add_part("game-header", "learn/_lesson.html", _lesson, order=10)
    extend.add_suggestion(_suggestion)
    extend.add_part("lobby", "learn/_first_games.html", _first_games, order=10)
    extend.add_part("my-games", "learn/_first_games.html", _first_games_for_newcomers)
