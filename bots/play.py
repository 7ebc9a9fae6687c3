"""Choosing one action for one seat: the entry point and the two simple strengths."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

from . import mcts
from .common import FINISH_TURN_LIMIT, Budget, Game, ends_turn, now, pick_random, players_of

__all__ = ["STRENGTHS", "Budget", "Game", "choose", "choose_from_view", "greedy", "pick_random"]

STRENGTHS = ("random", "greedy", "strong")


def choose(
    engine: Any,
    state: Any,
    seat: int,
    strength: str = "strong",
    *,
    budget: Budget | None = None,
    salt: str = "",
    players: int | None = None,
) -> dict[str, Any]:
    """The action ``seat`` takes now, decided from what that seat may know.

    ``salt`` varies the bot's random choices between games and turns (the
    site passes the game and move number); the rest of the seed is the view.
    ``players``: the number of seats (the site knows it); without it, the view's
    ``"players"`` or ``"seats"`` tells, which the engine protocol does not require.
    """
    started = now()
    view = engine.view(state, seat)
    return _decide(engine, view, seat, strength, lambda: state, budget, salt, players, started)


def choose_from_view(
    engine: Any,
    view: dict[str, Any],
    seat: int,
    strength: str = "greedy",
    *,
    budget: Budget | None = None,
    salt: str = "",
    players: int | None = None,
) -> dict[str, Any]:
    """:func:`choose` for a player who holds only ``view`` (``engine.view(state, seat)``,
    as the API serves it): the position is rebuilt with the engine's ``from_view``, the
    others' secrets drawn at random.

    On ``engine.view(state, seat)`` the decision is the one :func:`choose` makes on
    ``state``: the strengths search only samples (``determinize``), which redraw every
    secret in the same order from the rebuilt position as from the real one. (The
    API's view of a Tal der Könige game from round 2 on numbers its log without the
    others' secret plan steps: another seed, another decision as well founded.)
    Without ``from_view`` an engine offers the random strength only (ValueError).
    """
    started = now()
    rebuild = getattr(engine, "from_view", None)
    if rebuild is None and strength != "random":
        raise ValueError(f"{engine.slug} cannot rebuild a position from a view")

    def position() -> Any:
        # Its own generator: the decision's (seeded as ``choose`` seeds it) draws the
        # samples as it does from the real state.
        return rebuild(view, seat, random.Random(_seed(view, salt + ":position")))

    return _decide(engine, view, seat, strength, position, budget, salt, players, started)


def _decide(
    engine: Any,
    view: dict[str, Any],
    seat: int,
    strength: str,
    position: Callable[[], Any],
    budget: Budget | None,
    salt: str,
    players: int | None,
    started: float,
) -> dict[str, Any]:
    """The decision on ``view``; ``position()`` gives the state to search (asked only
    when the strength searches)."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength: {strength!r}")
    actions = [entry["action"] for entry in view["actions"]]
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do")
    rng = random.Random(_seed(view, salt))
    if len(actions) == 1:
        return actions[0]
    if strength == "random":
        return pick_random(actions, rng)
    players = players or players_of(view)
    if strength == "greedy":
        return greedy(Game(engine, seat, players), position(), actions, rng)
    game = Game(engine, seat, players, search=True)
    return mcts.search(game, position(), budget or Budget(), rng, started)


def _seed(view: dict[str, Any], salt: str) -> int:
    digest = hashlib.sha256((salt + json.dumps(view, sort_keys=True)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def greedy(game: Game, state: Any, actions: list[dict[str, Any]], rng: random.Random) -> Any:
    """The action whose outcome scores best for the seat (ties: a kind at random, then
    one of that kind, as ``pick_random``: Tal's secret plan scores nothing until it is
    carried out, and a tie drawn among sixty plan steps and one "submit" made a plan
    of hundreds of steps).

    One ply is one turn, not one step: where an action leaves the seat to act
    again (King of Siam's card, then where its followers go, then the one it
    takes), the rest of the turn is played greedily step by step before the
    position is scored, so playing a card is judged by what it can do.
    """
    sample = game.sample(state, rng)
    finish = len(actions) <= FINISH_TURN_LIMIT
    best: list[dict[str, Any]] = []
    best_value = -1.0
    for action in actions:
        position = game.apply(sample, game.seat, action)
        if finish and not ends_turn(action):
            position = game.finish_turn(position, rng)
        value = game.values(position)[game.seat]
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return pick_random(best, rng)
