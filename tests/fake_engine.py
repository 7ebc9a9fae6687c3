"""A tiny engine for testing the site frame without any real game's rules.

Players in turn add 1 or 2 to a shared total and then end their turn; whoever
brings the total to 10 or more wins. Each seat gets a secret number at set-up
that only it may see, so the tests can check that secrets stay hidden.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from enginekit import IllegalAction, msg


@dataclass
class State:
    players: int
    secrets: list[int]
    total: int = 0
    turn: int = 0
    added: bool = False
    log: list[dict] = field(default_factory=list)
    moves: int = 0
    last: tuple[int, str] | None = None
    winner: int | None = None


class CountEngine:
    slug = "count"
    name = "Count to Ten"
    rules_version = 1
    min_players = 2
    max_players = 3

    def options_schema(self):
        return [
            {
                "name": "target",
                "label": "Target",
                "type": "choice",
                "choices": [["10", "Ten"], ["5", "Five"]],
                "default": "10",
            }
        ]

    def validate_options(self, players, options):
        target = options.get("target", "10")
        if target not in ("10", "5"):
            raise ValueError("Unknown target.")
        return {"target": target}

    def setup(self, players, options, seed):
        rng = random.Random(seed)
        secrets = [rng.randrange(1000, 10000) for _ in range(players)]
        state = State(players=players, secrets=secrets)
        state.log.append({"move": 0, **msg("The game begins.")})
        return state

    def active_seats(self, state):
        return frozenset() if state.winner is not None else frozenset([state.turn])

    def legal_actions(self, state, seat):
        if seat not in self.active_seats(state):
            return []
        if state.added:
            return [{"type": "end"}]
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("{player} cannot do that now.", player=seat)
        state = copy.deepcopy(state)
        state.moves += 1
        if action["type"] == "add":
            state.total += action["n"]
            state.added = True
            state.log.append(
                {"move": state.moves, **msg("{player} adds {n}.", player=seat, n=action["n"])}
            )
            if state.total >= 10:
                state.winner = seat
        else:
            state.added = False
            state.turn = (state.turn + 1) % state.players
            state.log.append({"move": state.moves, **msg("{player} ends the turn.", player=seat)})
        state.last = (seat, action["type"])
        return state

    def can_undo(self, state, seat):
        return state.last == (seat, "add") and state.winner is None

    def view(self, state, viewer):
        actions = self.legal_actions(state, viewer) if viewer is not None else []
        return {
            "total": state.total,
            "my_secret": state.secrets[viewer] if viewer is not None else None,
            "active_seats": sorted(self.active_seats(state)),
            "prompt": msg("Add 1 or 2, then end your turn.") if actions else None,
            "actions": [
                {
                    "action": a,
                    "label": msg("Add {n}", n=a["n"]) if a["type"] == "add" else msg("End turn"),
                }
                for a in actions
            ],
            "log": state.log,
            "finished": state.winner is not None,
        }

    def result(self, state):
        if state.winner is None:
            return None
        others = [s for s in range(state.players) if s != state.winner]
        return {
            "winners": [state.winner],
            "ranking": [state.winner, *others],
            "reason": msg("{player} reached {total}.", player=state.winner, total=state.total),
            "details": {"total": state.total},
        }


ENGINE = CountEngine()
