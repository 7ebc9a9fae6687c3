"""Every ending of both titles is reached by real play from setup (bots.biased).

Random play ends Tal der Könige with the Pharaoh pyramid every time; the
co-operative builder finishes every pyramid in play. The bag ending cannot
happen at all (stone count below), which a test shows on every position of
played games.
"""

from __future__ import annotations

import random
from typing import Any

from bots import biased
from bots.common import pick_random
from siam.engine import ENGINE as SIAM
from tal.engine import ENGINE as TAL
from tal.engine import board as B


def _play(engine: Any, players: int, seed: int, policy: Any, watch: Any = None) -> Any:
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if engine.result(state) is not None:
            return state
        seat = min(engine.active_seats(state))
        state = engine.apply(state, seat, policy(engine, state, seat, rng))
        if watch is not None:
            watch(state)
    raise AssertionError(f"no end (seed {seed})")


def _random(engine: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    return pick_random(engine.legal_actions(state, seat), rng)


def test_random_play_ends_tal_only_with_the_pharaoh_pyramid():
    reasons = {_play(TAL, 2, seed, _random).end_reason for seed in range(6)}
    assert reasons == {"pharaoh"}


def test_the_builders_finish_every_pyramid_in_play():
    """The rule "the game ends after the round in which all other pyramids are
    finished", reached from setup by legal play (seeds 0, 5, 10, 11 of twelve)."""
    finished = []
    for seed in (0, 1, 5):
        state = _play(TAL, 2, seed, biased.tal_builder)
        if state.end_reason == "pyramids":
            in_play = [site for site in state.sites.values() if site.in_play]
            assert all(site.finished for site in in_play)
            assert len(state.pharaoh) < B.PHARAOH_CAPACITY
            assert TAL.result(state)["reason"]["key"].startswith("All pyramids are finished")
            finished.append(seed)
    assert finished == [0, 5]


def _stones(state: Any) -> int:
    on_sites = sum(site.stone_count() for site in state.sites.values())
    held = sum(sum(supply.values()) for supply in state.supply)
    market = sum(len(group) for group in state.groups) if not state.auction_revealed else 0
    return (
        sum(state.bag.values()) + len(state.pharaoh) + sum(state.out.values()) + on_sites + held
    ) + market


def test_the_bag_ending_cannot_happen_every_stone_is_kept():
    """The bag cannot fill a group only if 161 stones lie elsewhere: on the Pharaoh
    pyramid (29 at most while the game goes on: 30 end it, and stones leave the game
    only once it is full) and on the pyramids in play (129 at most, all fifteen
    sites; and then they are all finished, which ends the game first). So the
    engine's "bag" ending, a ruling of the site, is never reached by any play."""
    capacity = sum(B.CAPACITY[B.site_size(n)] for n in B.sites_in_play(4))
    assert capacity == 129
    assert B.TOTAL_STONES - (B.PHARAOH_CAPACITY - 1) - capacity >= B.GROUP_SIZE

    def watch(state: Any) -> None:
        assert _stones(state) == B.TOTAL_STONES
        if state.phase == "bid":  # the bag as the round began: what is left and the market
            drawn = sum(len(group) for group in state.offered)
            assert sum(state.bag.values()) + drawn >= B.GROUP_SIZE

    for seed, policy in ((0, biased.tal_builder), (3, _random)):
        _play(TAL, 4, seed, policy, watch)


def test_siam_reaches_both_endings():
    endings = set()
    for seed in range(12):
        state = _play(SIAM, 2 + seed % 3, seed, biased.siam_invader)
        endings.add(SIAM.result(state)["details"]["ending"])
    assert endings == {"invaders", "faction"}
