"""Computer players for every engine that follows the :mod:`enginekit` protocol.

Pure Python: nothing here imports Django or the site (a check greps for it).
A bot sees a game only as the seat it plays sees it. :func:`choose` starts
from ``engine.view(state, seat)``: the random numbers it uses are drawn from a
seed made of that view, and it only ever plays on copies made by the engine's
``determinize(state, seat, rng)``, which redraw every secret of the other
seats (see :mod:`enginekit`). So the same view gives the same decision,
whatever the other seats hold. A player who has only the view (a program playing
through the API) decides with :func:`choose_from_view`, on a position the engine
rebuilds from it (``from_view``, see :mod:`enginekit`).

Strengths (``STRENGTHS``):

- ``random``: any legal action;
- ``greedy``: one ply, where a ply is the seat's turn: each legal action
  applied to a sampled position, the rest of the turn played greedily step by
  step (when there are few actions), the outcome scored with the engine's
  result or a heuristic per title (:mod:`bots.heuristics`);
- ``strong``: information-set Monte-Carlo tree search (:mod:`bots.mcts`) over
  positions sampled afresh for every playout, starting from the greedy
  scores, within a playout budget and a clock (:class:`Budget`); per title,
  :mod:`bots.policies` says how far the tree reaches and how a secret choice
  is handed in before a position is scored.

Modules import each other in one direction only: ``play`` -> ``mcts`` ->
``policies``, ``common`` -> ``heuristics`` (``arena`` and ``biased``, the
benchmark's biased players, and ``reasons``, which says why an action is good as the
heuristics see it, sit on top). A test reads every import.
"""

from __future__ import annotations

from .common import Budget
from .play import STRENGTHS, choose, choose_from_view
from .reasons import explain

__all__ = ["STRENGTHS", "Budget", "choose", "choose_from_view", "explain"]
