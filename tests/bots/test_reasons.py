"""Why a suggested move is good, as the bot's own evaluation sees it (``bots.explain``):
a code and ids, read from the position the move leads to; never from another seat's
secrets."""

from __future__ import annotations

import bots
from siam.engine import ENGINE as SIAM
from tal.engine import ENGINE as TAL

from .test_bots import _swap_secrets, _tal_bids_laid


def test_a_pass_keeps_the_cards_for_the_struggles_to_come():
    state = SIAM.setup(2, {}, 1)
    seat = min(SIAM.active_seats(state))
    reason = bots.explain(SIAM, state, seat, {"type": "pass"}, 2)
    assert reason["code"] == "siam.pass_keep"
    assert reason["cards"] == 8 and reason["province"] == state.current()


def test_a_tile_of_no_rings_is_a_bluff_and_the_highest_leads_an_empty_group():
    state = TAL.setup(2, {}, 3)
    seat = state.current
    bluff = bots.explain(TAL, state, seat, {"type": "bid", "group": 1, "rings": 0}, 2)
    assert bluff == {"code": "tal.bluff", "group": 1}
    highest = max(state.tiles[seat])
    bid = {"type": "bid", "group": 2, "rings": highest}
    assert bots.explain(TAL, state, seat, bid, 2) == {
        "code": "tal.bid_lead",
        "group": 2,
        "stones": 5,
    }


def test_an_overseer_that_claims_a_site_names_the_site_and_its_best_pyramid():
    state = TAL.setup(2, {}, 3)
    for _ in range(2):  # nobody bids: the overseers move next
        state = TAL.apply(state, state.current, {"type": "end_bids"})
    assert state.phase == "overseer"
    seat = state.current
    claim = next(
        a
        for a in TAL.legal_actions(state, seat)
        if a["type"] == "move"
        and "-" in a["to"]
        and state.sites[int(a["to"].split("-")[0])].owner is None
    )
    site = state.sites[int(claim["to"].split("-")[0])]
    points = {"small": 5, "large": 20}[site.size]  # one colour: the best a pyramid scores
    assert bots.explain(TAL, state, seat, claim, 2) == {
        "code": "tal.claim",
        "site": site.number,
        "points": points,
    }


def test_the_reason_is_the_same_whatever_the_other_seats_hide():
    state, other, seat = _tal_bids_laid()
    changed = _swap_secrets(state, other)
    for action in TAL.legal_actions(state, seat)[::7]:
        assert bots.explain(TAL, state, seat, action, 2, "x") == bots.explain(
            TAL, changed, seat, action, 2, "x"
        )
