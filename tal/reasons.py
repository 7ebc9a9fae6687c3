"""A suggested move's reason in words (``botplay``): the bot says why as a code and ids
(``bots.reasons``); this turns them into a Message."""

from __future__ import annotations

from typing import Any

from enginekit import N_, Message, msg

PHRASES = {
    "tal.claim": N_(
        "It claims building site {site} for you: a pyramid there can score up to {points} points."
    ),
    "tal.plan_claim": N_(
        "An overseer on a field of site {site} claims it for you, if nobody is there first: a "
        "pyramid there can score up to {points} points."
    ),
    "tal.guard": N_(
        "An overseer on your site {site} helps keep the others from stealing its stones or "
        "taking it over: they need more overseers there than you."
    ),
    "tal.contest": N_(
        "An overseer on site {site} counts towards the majority you need there to steal its "
        "stones or take it over."
    ),
    "tal.submit": N_(
        "Your plan is complete: hand it in, and it is carried out once every plan is in."
    ),
    "tal.worker": N_("A worker on a field of your site {site} builds 2 stones there this round."),
    "tal.complete": N_("This stone finishes your pyramid on site {site}: {points} points."),
    "tal.build": N_(
        "A {colour} stone on your site {site}: its colours still allow {points} points once the "
        "pyramid is finished."
    ),
    "tal.bid_lead": N_(
        "This tile makes you the highest bidder for group {group} and its {stones} stones, as "
        "far as the tiles you can see tell."
    ),
    "tal.bid": N_("This tile raises your bid for group {group} and its {stones} stones."),
    "tal.bluff": N_(
        "A tile of 0 rings on group {group}: the others cannot tell it from a real bid, and it "
        "costs you nothing."
    ),
    "tal.steal": N_("A stone taken from site {site} is one more stone for you to build."),
    "tal.takeover": N_("Your scarab on site {site} makes its pyramid yours."),
}


def reason(found: dict[str, Any], view: dict[str, Any]) -> Message | None:
    """The sentence for ``found`` (``bots.explain``), or None for a code of no title."""
    key = PHRASES.get(found["code"])
    if key is None:
        return None
    return msg(key, **{k: v for k, v in found.items() if k != "code"})
