"""What every strength and the search share: the budget, the engine wrapper, random picks.

The lowest module of :mod:`bots` but :mod:`bots.heuristics`: it imports no other
module of the package, and :mod:`bots.mcts` and :mod:`bots.play` import it
(``play`` -> ``mcts`` -> ``common`` -> ``heuristics``, one direction only).
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass
from typing import Any

from . import heuristics

TURN_STEPS = 4  # how far the greedy bot plays a turn on before scoring it
GREEDY_WIDTH = 12  # steps compared at once while finishing a turn (a sample beyond)
# Finishing the turn after each of many actions costs too much (Tal's moves,
# some 90 of them): beyond this many, each is scored as it stands.
FINISH_TURN_LIMIT = 12


@dataclass(frozen=True)
class Budget:
    """How long the strong bot may think: stop at whichever limit comes first.

    ``seconds`` None means no clock (then the decision depends only on the
    view and the salt: what tests, replays and the benchmark's win rates
    need). The default keeps a decision within a second on a small server.
    """

    seconds: float | None = 1.0
    playouts: int | None = 200


def ends_turn(action: dict[str, Any]) -> bool:
    """An action that closes the seat's turn even if the seat has the next move too.

    Tal der Könige ends every turn with an explicit ``end_*`` action (or
    ``submit_plan``), and the seat that ends the round's building may well be
    the first to bid in the next: playing on greedily from there would score
    the next round's bids as part of this turn.
    """
    kind = action["type"]
    return kind.startswith("end_") or kind.startswith("submit")


def now() -> float:
    return time.perf_counter()


def pick_random(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A kind of action at random, then one of that kind.

    Uniform over actions, a seat offered sixty plan steps and one "submit"
    would rewrite its plan for ever; by kind, ending the turn is as likely
    as anything else.
    """
    kinds = sorted({action["type"] for action in actions})
    kind = rng.choice(kinds)
    return rng.choice([action for action in actions if action["type"] == kind])


def players_of(view: dict[str, Any]) -> int:
    count = view.get("players")
    return count if isinstance(count, int) else len(view["seats"])


class Game:
    """The engine as one seat's bot uses it: sampled positions, outcomes and scores."""

    def __init__(self, engine: Any, seat: int, players: int, *, search: bool = False) -> None:
        self.engine = engine
        self.seat = seat
        self.players = players
        # ``search``: the strong bot's game, scored as its search scores positions.
        self.heuristic = (heuristics.for_search if search else heuristics.for_engine)(engine)
        self._determinize = getattr(engine, "determinize", None)
        # Every action a bot applies comes from ``legal_actions`` of that very position:
        # an engine's ``apply_legal`` (see enginekit) skips checking it again.
        self.apply = getattr(engine, "apply_legal", None) or engine.apply

    def sample(self, state: Any, rng: random.Random) -> Any:
        """A position the seat cannot tell from the real one, secrets redrawn."""
        if self._determinize is None:
            return copy.deepcopy(state)
        return self._determinize(state, self.seat, rng)

    def values(self, state: Any) -> list[float]:
        """Per seat, 0..1: the outcome if the game is over, else the title's heuristic."""
        result = self.engine.result(state)
        if result is not None:
            return heuristics.outcome(result, self.players)
        return self.heuristic(state, self.players)

    def best_step(
        self, state: Any, seat: int, actions: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        """The action of ``seat`` whose immediate outcome scores best (ties: at random)."""
        if len(actions) > GREEDY_WIDTH:
            actions = rng.sample(actions, GREEDY_WIDTH)
        best: list[dict[str, Any]] = []
        best_value = -1.0
        for action in actions:
            value = self.values(self.apply(state, seat, action))[seat]
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return pick_random(best, rng)

    def finish_turn(self, state: Any, rng: random.Random) -> Any:
        """Play on greedily, step by step, while the seat keeps the move (a few steps at most)."""
        engine = self.engine
        for _ in range(TURN_STEPS):
            if engine.result(state) is not None or self.to_move(state) != self.seat:
                break
            actions = engine.legal_actions(state, self.seat)
            if not actions:
                break
            action = self.best_step(state, self.seat, actions, rng)
            state = self.apply(state, self.seat, action)
            if ends_turn(action):
                break
        return state

    def to_move(self, state: Any) -> int | None:
        """The seat whose decision comes next (the bot's own first, where play is simultaneous)."""
        active = self.engine.active_seats(state)
        if not active:
            return None
        return self.seat if self.seat in active else min(active)
