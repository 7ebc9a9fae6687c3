"""Computer players for every engine that follows the :mod:`enginekit` protocol.

Pure Python: nothing here imports Django or the site (a check greps for it).
A bot sees a game only as the seat it plays sees it. :func:`choose` starts
from ``engine.view(state, seat)``: the random numbers it uses are drawn from a
seed made of that view, and it only ever plays on copies made by the engine's
``determinize(state, seat, rng)``, which redraw every secret of the other
seats (see :mod:`enginekit`). So the same view gives the same decision,
whatever the other seats hold.

Strengths (``STRENGTHS``):

- ``random``: any legal action;
- ``greedy``: one ply: each legal action applied to a sampled position, the
  outcome scored with the engine's result or a heuristic per title
  (:mod:`bots.heuristics`);
- ``strong``: information-set Monte-Carlo tree search (:mod:`bots.mcts`) over
  positions sampled afresh for every playout, within a time or playout budget.
"""

from __future__ import annotations

from .play import STRENGTHS, Budget, choose

__all__ = ["STRENGTHS", "Budget", "choose"]
