"""Information-set Monte-Carlo tree search (single observer, determinised).

One tree for the deciding seat's information set. Every playout samples a
fresh position with the engine's ``determinize`` (the other seats' secrets
redrawn), walks the tree choosing among the actions legal in that sample
(UCB1, each child's count of how often it was available standing in for the
parent's visits), adds one node, plays on at random for a bounded number of
actions, and scores the end with the result or the title's heuristic.
Rewards are per seat, and each node is judged by the seat that chose it, so
the same search serves two to four players.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .play import Budget, Game

EXPLORATION = 0.7
ROLLOUT_ACTIONS = 40  # then the heuristic judges: full playouts of Tal cost too much


class Node:
    __slots__ = ("action", "seat", "children", "visits", "available", "reward")

    def __init__(self, action: dict[str, Any] | None = None, seat: int | None = None) -> None:
        self.action = action
        self.seat = seat  # who chose ``action`` to get here
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0

    def ucb(self) -> float:
        mean = self.reward / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def _key(seat: int, action: dict[str, Any]) -> tuple:
    return (seat, *sorted(action.items()))


def search(game: Game, state: Any, budget: Budget, rng: random.Random) -> dict[str, Any]:
    from .play import now

    engine = game.engine
    root = Node()
    deadline = None if budget.seconds is None else now() + budget.seconds
    playouts = 0
    while (budget.playouts is None or playouts < budget.playouts) and (
        deadline is None or now() < deadline
    ):
        playouts += 1
        position = game.sample(state, rng)
        node = root
        path = [root]
        seat = game.seat
        # Selection and expansion.
        while True:
            if engine.result(position) is not None:
                break
            seat = game.to_move(position)
            if seat is None:
                break
            legal = engine.legal_actions(position, seat)
            untried = []
            present = []
            for action in legal:
                child = node.children.get(_key(seat, action))
                if child is None:
                    untried.append(action)
                else:
                    present.append(child)
            for child in present:
                child.available += 1
            if untried:
                action = rng.choice(untried)
                child = Node(action, seat)
                child.available = 1
                node.children[_key(seat, action)] = child
                position = engine.apply(position, seat, action)
                path.append(child)
                break
            node = max(present, key=Node.ucb)
            position = engine.apply(position, seat, node.action)
            path.append(node)
        # Playout.
        for _ in range(ROLLOUT_ACTIONS):
            if engine.result(position) is not None:
                break
            seat = game.to_move(position)
            if seat is None:
                break
            position = engine.apply(
                position, seat, rng.choice(engine.legal_actions(position, seat))
            )
        values = game.values(position)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.reward += values[visited.seat]
    mine = [child for child in root.children.values() if child.seat == game.seat]
    return max(mine, key=lambda child: (child.visits, child.reward)).action
