"""Whole games between bots, without the site: for benchmarks and quick checks."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .common import Budget
from .play import choose


@dataclass
class Played:
    result: dict[str, Any]
    actions: list[tuple[int, dict[str, Any]]]
    # Seconds per decision, by seat (forced single choices included).
    times: dict[int, list[float]] = field(default_factory=dict)


def play_game(
    engine: Any,
    strengths: list[str],
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    budget: Budget | None = None,
    max_actions: int = 20000,
) -> Played:
    """Play one game with seat ``n`` taken by a bot of ``strengths[n]``.

    Where several seats must act at once, the lowest seat acts first: the
    engines keep such decisions secret from each other, so the order is moot.
    """
    state = engine.setup(len(strengths), options or {}, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    times: dict[int, list[float]] = {seat: [] for seat in range(len(strengths))}
    while engine.result(state) is None:
        if len(actions) >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions (seed {seed})")
        seat = min(engine.active_seats(state))
        start = time.perf_counter()
        action = choose(
            engine,
            state,
            seat,
            strengths[seat],
            budget=budget,
            salt=f"{seed}:{len(actions)}",
            players=len(strengths),
        )
        times[seat].append(time.perf_counter() - start)
        state = engine.apply(state, seat, action)
        actions.append((seat, action))
    return Played(engine.result(state), actions, times)
