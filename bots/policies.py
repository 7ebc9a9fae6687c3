"""Per title: how the search (:mod:`bots.mcts`) treats a title's turns and secret choices.

- ``tal_close``: Tal der Könige's overseer plan is secret and carried out only
  when every seat has submitted one: a plan step changes nothing on the
  board, so a position scored right after it says nothing about it. Before
  such a position is scored, the search hands the plan in (the unplanned
  overseer staying where it stands) and lets the seats planning at the same
  time plan blind, so the plan is judged by what it does.
- ``tal_choices`` and ``tal_settled``: each overseer is planned once, and a
  complete plan is handed in without another search.
- ``OWN_TURN``: titles whose tree holds only the deciding seat's own turn
  (Tal: its heuristic is not comparable across phases, and the next round's
  bidding looked better than building this round's stones).

Titles not named here (King of Siam) are searched as before: every action,
every seat in the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Action = dict[str, Any]
Closer = Callable[[Any, int], Action | None]


def tal_close(state: Any, seat: int) -> Action | None:
    """The action that hands in ``seat``'s plan, or None outside the plan phase."""
    if state.phase != "plan" or state.plans_revealed or state.submitted[seat]:
        return None
    for index, target in enumerate(state.plans[seat]):
        if target is None:
            return {"type": "plan", "index": index, "to": state.overseers[seat][index]}
    return {"type": "submit_plan"}


def no_close(state: Any, seat: int) -> Action | None:
    return None


def tal_settled(state: Any, seat: int) -> Action | None:
    """``submit_plan`` once both overseers are planned: the search chose the plan
    step by step, and weighing it against every other plan again at each step
    only lets sampling noise rewrite it (it did, for a hundred steps a round)."""
    if state.phase != "plan" or state.plans_revealed or state.submitted[seat]:
        return None
    return {"type": "submit_plan"} if None not in state.plans[seat] else None


def tal_choices(state: Any, seat: int, actions: list[Action]) -> list[Action]:
    """The plan steps still open: each overseer is planned once (a plan step that
    rewrites a target again only lets sampling noise go round in circles)."""
    if state.phase != "plan":
        return actions
    plan = state.plans[seat]
    return [a for a in actions if a["type"] != "plan" or plan[a["index"]] is None]


def all_choices(state: Any, seat: int, actions: list[Action]) -> list[Action]:
    return actions


Pruner = Callable[[Any, int, list[Action]], list[Action]]
SETTLED: dict[str, Closer] = {"tal": tal_settled}
CHOICES: dict[str, Pruner] = {"tal": tal_choices}


def choices_for(engine: Any) -> Pruner:
    """Which of a seat's legal actions the search weighs (all but for a few titles)."""
    return CHOICES.get(getattr(engine, "slug", ""), all_choices)


def settled_for(engine: Any) -> Closer:
    """The action a seat takes without searching, where its choice is already made."""
    return SETTLED.get(getattr(engine, "slug", ""), no_close)


BY_TITLE: dict[str, Closer] = {"tal": tal_close}

# Titles whose search tree holds only the seat's own turn (see bots.mcts): the
# other seats' replies are left to the heuristic.
OWN_TURN: set[str] = {"tal"}


def closer_for(engine: Any) -> Closer:
    return BY_TITLE.get(getattr(engine, "slug", ""), no_close)


def own_turn_only(engine: Any) -> bool:
    return getattr(engine, "slug", "") in OWN_TURN


# Titles whose seat has the same choices at a node of the search tree in every sampled
# position, so the search lists them once a node (bots.mcts): Tal, whose tree holds the
# seat's own turn only, in which nothing is drawn and the seat's legal actions depend on
# public things and its own secrets only (its tiles, its plan), never on another seat's.
# tests/bots/test_search.py checks it on sampled positions.
FIXED_CHOICES: set[str] = {"tal"}


def fixed_choices(engine: Any) -> bool:
    return getattr(engine, "slug", "") in FIXED_CHOICES
