"""Sampling what one seat cannot see, for computer players (``ENGINE.determinize``).

A seat of Tal der Könige does not know: the values of the bid tiles the others
hold or have laid face down (only their number), the others' overseer plans
before they are revealed, and the order in which the bag gives its stones (the
state's random number generator). Everything else is public.
"""

from __future__ import annotations

import random

from . import board as B
from .state import TalState

_TRIES = 20  # enough to meet the 10-rings limit in practice; then any split will do


def determinize(state: TalState, seat: int, rng: random.Random) -> TalState:
    """A copy of ``state`` with every secret of the other seats redrawn from ``rng``.

    The copy depends on ``state`` only through what ``seat`` may see: each
    hidden value is replaced, never kept, so a computer player that decides on
    the copy learns nothing from the real secrets.
    """
    new = state.clone()
    redraw(new, seat, rng)
    return new


def redraw(state: TalState, seat: int, rng: random.Random) -> None:
    """Draw every secret of the seats but ``seat`` afresh from ``rng``, in ``state`` (one
    the caller owns: a copy, or a state rebuilt from a view, :mod:`tal.engine.rebuild`),
    and the order of the bag with them."""
    state.seed = 0
    state.rng = random.Random(rng.getrandbits(64))
    others = [s for s in range(state.players) if s != seat]
    if not state.auction_revealed:
        for other in others:
            _redraw_tiles(state, other, rng)
    if state.phase == "plan" and not state.plans_revealed:
        for other in others:
            if state.submitted[other]:
                state.plans[other] = _random_plan(state.overseers[other], rng)
            else:
                state.plans[other] = [None] * B.OVERSEERS


def _redraw_tiles(state: TalState, seat: int, rng: random.Random) -> None:
    laid = [bid for group in state.bids for bid in group if bid[0] == seat]
    pool = list(B.BID_TILES)
    for _ in range(_TRIES):
        rng.shuffle(pool)
        values = iter(pool[: len(laid)])
        sums: dict[int, int] = {}
        ok = True
        for g, group in enumerate(state.bids):
            for bid in group:
                if bid[0] == seat:
                    sums[g] = sums.get(g, 0) + next(values)
                    ok = ok and sums[g] <= 10
        if ok:
            break
    values = iter(pool[: len(laid)])
    for bid in laid:
        bid[1] = next(values)
    state.tiles[seat] = sorted(pool[len(laid) :])


def _random_plan(positions: list[str], rng: random.Random) -> list[str | None]:
    """Targets for both overseers, at most ``B.STEPS`` steps in all."""
    first = rng.choice([n for n in B.NODES if B.DIST[positions[0]][n] <= B.STEPS])
    left = B.STEPS - B.DIST[positions[0]][first]
    second = rng.choice([n for n in B.NODES if B.DIST[positions[1]][n] <= left])
    return [first, second]
